import Foundation
import GatewayConfigurationFile
import GatewayTransport
import X509

extension ClientCertificateTrust {
    /// The rules of `merchant.<ID>.clientCertificate.*`, their certificates read from disk.
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
        self.init(rules: rules)
    }

    fileprivate static func certificate(_ path: String, key: String) throws(ConfigurationError) -> Certificate {
        let bytes = try MerchantLoader.read(path, key: key)
        let text = String(decoding: bytes, as: UTF8.self)
        if let certificate = try? Certificate(pemEncoded: text) { return certificate }
        if let certificate = try? Certificate(derEncoded: bytes) { return certificate }
        throw ConfigurationError(key: key, problem: "names \(path), which holds no PEM or DER certificate")
    }
}
