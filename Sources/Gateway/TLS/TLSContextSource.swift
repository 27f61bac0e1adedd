import Foundation
import GatewayConfigurationFile
import NIOSSL
import Synchronization

/// The server's TLS context, read from `server.tls.*` and replaced on reload: a new connection
/// takes the current one, and open connections keep the context they started with.
final class TLSContextSource: Sendable {
    /// TLS 1.2's suites, forward-secret AEAD only; TLS 1.3's are BoringSSL's fixed three.
    static let tls12Ciphers: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    let settings: GatewayConfiguration.TLSSettings
    /// Certificate listener: a client certificate is required (its chain is judged per request).
    let requiresClientCertificate: Bool
    private let context: Mutex<NIOSSLContext>

    init(_ settings: GatewayConfiguration.TLSSettings, requiresClientCertificate: Bool) throws(ConfigurationError) {
        self.settings = settings
        self.requiresClientCertificate = requiresClientCertificate
        context = Mutex(try Self.makeContext(settings, requiresClientCertificate: requiresClientCertificate))
    }

    var current: NIOSSLContext { context.withLock { $0 } }

    /// Reads the files again; on any problem the old context stays and the problem is thrown.
    func reload() throws(ConfigurationError) {
        let fresh = try Self.makeContext(settings, requiresClientCertificate: requiresClientCertificate)
        context.withLock { $0 = fresh }
    }

    static func makeContext(
        _ settings: GatewayConfiguration.TLSSettings,
        requiresClientCertificate: Bool
    ) throws(ConfigurationError) -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(MerchantLoader.read(settings.certificatePath, key: "server.tls.certificate"))
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(key: "server.tls.certificate", problem: "names \(settings.certificatePath), which holds no PEM certificate")
        }
        guard !chain.isEmpty else {
            throw ConfigurationError(key: "server.tls.certificate", problem: "names \(settings.certificatePath), which holds no PEM certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: MerchantLoader.read(settings.privateKeyPath, key: "server.tls.privateKey"), format: .pem)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(key: "server.tls.privateKey", problem: "names \(settings.privateKeyPath), which holds no PEM private key")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = .tlsv13
        configuration.cipherSuiteValues = tls12Ciphers
        configuration.applicationProtocols = ["h2", "http/1.1"]
        // A connection the gateway closes (idle, shut down) waits this long for the client's
        // close_notify; most clients never send one, and NIOSSL's 5 s default held every such
        // connection's slot, and a SIGTERM's exit, for 5 s.
        configuration.shutdownTimeout = .seconds(1)
        if requiresClientCertificate {
            // Required at the handshake; which merchant it stands for is decided per request.
            configuration.certificateVerification = .noHostnameVerification
            configuration.sendCANameList = false
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ConfigurationError(
                key: "server.tls.privateKey",
                problem: "does not match server.tls.certificate, or either cannot be used (\(error))"
            )
        }
    }
}
