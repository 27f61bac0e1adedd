import Foundation
import X509

/// Which link of leaf → intermediate → trust root failed, in words: "do not chain" alone sends
/// people to the trust roots when it was the leaf that was altered.
enum ChainFailure {
    /// The first failing link, checked in the order the chain is built.
    static func explain(
        leaf: Certificate,
        intermediate: Certificate,
        roots: [Certificate],
        at signingTime: Date,
        policyReasons: [String]
    ) -> String {
        guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
            return "the leaf \(name(leaf.subject)) is not signed by the intermediate \(name(intermediate.subject)): "
                + "its signature does not verify with the intermediate's key (an altered or re-issued leaf)"
        }
        let namesakes = roots.filter { $0.subject == intermediate.issuer }
        guard !namesakes.isEmpty else {
            return "the intermediate \(name(intermediate.subject)) was issued by \(name(intermediate.issuer)), "
                + "which is not a configured trust root"
        }
        guard let root = namesakes.first(where: { $0.publicKey.isValidSignature(intermediate.signature, for: intermediate) }) else {
            return "the intermediate \(name(intermediate.subject)) is not signed by the trust root \(name(intermediate.issuer)): "
                + "its signature does not verify with the root's key (an altered intermediate, or another root of that name)"
        }
        guard isValid(root, at: signingTime) else {
            return "the trust root \(name(root.subject)) was not valid at the signing time \(signingTime.iso8601) "
                + "(valid \(root.notValidBefore.iso8601) to \(root.notValidAfter.iso8601))"
        }
        let detail = policyReasons.isEmpty ? "" : ": " + Set(policyReasons).sorted().joined(separator: "; ")
        return "the chain \(name(leaf.subject)) → \(name(intermediate.subject)) → \(name(root.subject)) "
            + "fails certificate path validation at the signing time\(detail)"
    }

    /// Inclusive, compared one by one: a hostile certificate may end before it begins, which a
    /// range would trap on.
    static func isValid(_ certificate: Certificate, at time: Date) -> Bool {
        certificate.notValidBefore <= time && time <= certificate.notValidAfter
    }

    /// A certificate name as people read it: its common name in quotes, or the whole name.
    static func name(_ distinguishedName: DistinguishedName) -> String {
        for relativeName in distinguishedName {
            for attribute in relativeName where attribute.type == .RDNAttributeType.commonName {
                return "'\(String(describing: attribute.value))'"
            }
        }
        return "'\(String(describing: distinguishedName))'"
    }
}
