import Foundation
import GatewayHTTP
import X509

/// Which merchants a client certificate authenticates (`merchant.<ID>.clientCertificates`): a
/// pinned certificate matches byte for byte; an issued one must be signed by the configured
/// issuer and carry the configured subject. Either must be within its validity period.
package struct ClientCertificateTrust: Sendable {
    package enum Rule: Sendable {
        case pinned(Certificate)
        case issued(by: Certificate, subject: String)
    }

    let rules: [(merchantId: String, rule: Rule)]

    package var isEmpty: Bool { rules.isEmpty }

    package init(rules: [(merchantId: String, rule: Rule)]) {
        self.rules = rules
    }

    /// The verdict on a presented leaf certificate (DER), at `now`.
    package func caller(presenting der: [UInt8]?, at now: Date) -> ClientCertificateCaller {
        guard let der else { return .refused(.absent) }
        guard let leaf = try? Certificate(derEncoded: der) else { return .refused(.unreadable) }
        if now < leaf.notValidBefore { return .refused(.notYetValid) }
        if now > leaf.notValidAfter { return .refused(.expired) }
        var merchants: Set<String> = []
        for (merchantId, rule) in rules where Self.matches(leaf, rule) {
            merchants.insert(merchantId)
        }
        return merchants.isEmpty ? .refused(.unknown) : .merchants(merchants)
    }

    private static func matches(_ leaf: Certificate, _ rule: Rule) -> Bool {
        switch rule {
        case .pinned(let pinned):
            return pinned == leaf
        case .issued(let issuer, let subject):
            return leaf.issuer == issuer.subject && String(describing: leaf.subject) == subject
                && issuer.publicKey.isValidSignature(leaf.signature, for: leaf)
        }
    }
}
