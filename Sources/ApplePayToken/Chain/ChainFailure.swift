import Foundation
import X509

/// Why a chain whose signatures all verify (``ChainLinks``) still fails, in words: the root's
/// validity first, then what path validation reported.
enum ChainFailure {
    static func explain(
        leaf: Certificate,
        intermediate: Certificate,
        root: Certificate,
        at signingTime: Date,
        policyReasons: [String]
    ) -> String {
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
