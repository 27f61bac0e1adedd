import Foundation
import GatewayCertificates
import GatewayConfigurationFile

/// Issue 32: HTTPS, and certificate authentication on its own listener (keys in the table of
/// ``GatewayConfiguration``).
extension GatewayConfiguration {
    struct TLSSettings: Sendable {
        var certificatePath: String
        var privateKeyPath: String
    }

    /// One certificate a merchant may authenticate with.
    enum ClientCertificateSettings: Sendable {
        case pinned(name: String, certificatePath: String)
        case issued(name: String, issuerPath: String, subject: String)
    }

    static func tls(_ values: ConfigValues) throws(ConfigurationError) -> TLSSettings? {
        let certificate = try values.string("server.tls.certificate")
        let privateKey = try values.string("server.tls.privateKey")
        switch (certificate, privateKey) {
        case (nil, nil): return nil
        case (let certificate?, let privateKey?): return TLSSettings(certificatePath: certificate, privateKeyPath: privateKey)
        case (nil, _): throw ConfigurationError(key: "server.tls.certificate", problem: "is needed with server.tls.privateKey")
        case (_, nil): throw ConfigurationError(key: "server.tls.privateKey", problem: "is needed with server.tls.certificate")
        }
    }

    static func sandboxTLSDirectory(_ values: ConfigValues) throws(ConfigurationError) -> String {
        try values.string("sandbox.tlsDirectory") ?? "data/tls"
    }

    /// `gateway serve --tls` in sandbox mode: HTTPS from the local CA (made on first use) unless
    /// `server.tls.*` names a certificate; each merchant with no client certificates configured
    /// accepts those the local CA issued for subject `CN=<ID>` (`gateway merchant-certificate`).
    func withSandboxTLS() throws -> (GatewayConfiguration, LocalTLSAuthority) {
        guard mode == .sandbox else {
            throw ConfigurationError(
                key: "server.tls.certificate",
                problem: "is needed in production mode: --tls makes a local CA in sandbox mode only"
            )
        }
        let authority = try LocalTLSAuthority.loadOrCreate(at: URL(fileURLWithPath: sandboxTLSDirectory))
        var configuration = self
        if configuration.tls == nil {
            configuration.tls = TLSSettings(certificatePath: authority.serverCertificatePath, privateKeyPath: authority.serverKeyPath)
        }
        for index in configuration.merchants.indices where configuration.merchants[index].clientCertificates.isEmpty {
            let id = configuration.merchants[index].id
            configuration.merchants[index].clientCertificates = [
                .issued(name: "sandbox", issuerPath: authority.caPath, subject: "CN=\(id)")
            ]
        }
        return (configuration, authority)
    }

    static func certificateAuthenticationPort(_ values: ConfigValues) throws(ConfigurationError) -> Int? {
        guard let port = try values.int("server.certificateAuthentication.port") else { return nil }
        guard (0...65535).contains(port) else {
            throw ConfigurationError(key: "server.certificateAuthentication.port", problem: "must be 0-65535")
        }
        return port
    }

    /// The certificate listener is HTTPS only: checked once `--tls` has had its say.
    func checkCertificateListener() throws(ConfigurationError) {
        guard certificateAuthenticationPort != nil, tls == nil else { return }
        throw ConfigurationError(
            key: "server.certificateAuthentication.port",
            problem: "needs server.tls.certificate and server.tls.privateKey (or --tls in sandbox mode): the listener is HTTPS only"
        )
    }

    static func clientCertificates(_ merchantId: String, _ values: ConfigValues) throws(ConfigurationError) -> [ClientCertificateSettings] {
        let prefix = "merchant.\(merchantId)"
        let names = try values.stringArray("\(prefix).clientCertificates") ?? []
        return try names.map { name throws(ConfigurationError) in
            let key = "\(prefix).clientCertificate.\(name)"
            let certificate = try values.string("\(key).certificate")
            let issuer = try values.string("\(key).issuer")
            let subject = try values.string("\(key).subject")
            switch (certificate, issuer, subject) {
            case (let certificate?, nil, nil): return .pinned(name: name, certificatePath: certificate)
            case (nil, let issuer?, let subject?) where !subject.isEmpty:
                return .issued(name: name, issuerPath: issuer, subject: subject)
            case (nil, _?, _): throw ConfigurationError(key: "\(key).subject", problem: "is needed with \(key).issuer")
            case (nil, nil, _):
                throw ConfigurationError(key: "\(key).certificate", problem: "or \(key).issuer with \(key).subject must be given")
            default: throw ConfigurationError(key: "\(key).certificate", problem: "and \(key).issuer are exclusive")
            }
        }
    }
}
