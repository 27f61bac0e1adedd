import Foundation
import GatewayHTTP
import X509

/// Which merchants a client certificate authenticates (`merchant.<ID>.clientCertificates`): a
/// pinned certificate matches byte for byte; an issued one must be signed by the configured
/// issuer and carry the configured subject. Either must be within its validity period.
struct ClientCertificateTrust: Sendable {
    enum Rule: Sendable {
        case pinned(Certificate)
        case issued(by: Certificate, subject: String)
    }

    let rules: [(merchantId: String, rule: Rule)]

    var isEmpty: Bool { rules.isEmpty }

    init(rules: [(merchantId: String, rule: Rule)]) {
        self.rules = rules
    }

    init(_ merchants: [GatewayConfiguration.MerchantSettings]) throws(ConfigurationError) {
        var rules: [(String, Rule)] = []
        for merchant in merchants {
            for settings in merchant.clientCertificates {
                let prefix = "merchant.\(merchant.id).clientCertificate"
                switch settings {
                case .pinned(let name, let path):
                    rules.append((merchant.id, .pinned(try Self.certificate(path, key: "\(prefix).\(name).certificate"))))
                case .issued(let name, let path, let subject):
                    rules.append((merchant.id, .issued(by: try Self.certificate(path, key: "\(prefix).\(name).issuer"), subject: subject)))
                }
            }
        }
        self.rules = rules
    }

    /// The verdict on a presented leaf certificate (DER), at `now`.
    func caller(presenting der: [UInt8]?, at now: Date) -> ClientCertificateCaller {
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

    private static func certificate(_ path: String, key: String) throws(ConfigurationError) -> Certificate {
        let bytes = try MerchantLoader.read(path, key: key)
        let text = String(decoding: bytes, as: UTF8.self)
        if let certificate = try? Certificate(pemEncoded: text) { return certificate }
        if let certificate = try? Certificate(derEncoded: bytes) { return certificate }
        throw ConfigurationError(key: key, problem: "names \(path), which holds no PEM or DER certificate")
    }
}
