import Foundation
import GatewayConfigurationFile
import GatewayTransport
import Logging
import ServiceLifecycle
import UnixSignals

/// Issue 32: what HTTPS needs beside the router: the main listener's TLS context (nil: plain
/// HTTP), and the certificate-authentication listener's context, trust and port.
struct TLSListeners: Sendable {
    struct CertificateListener: Sendable {
        let port: Int
        let contexts: TLSContextSource
        let trust: ClientCertificateTrust
    }

    let main: TLSContextSource?
    let certificate: CertificateListener?
    /// The sandbox's local CA, when `--tls` made the certificate: the start-up says how to trust it.
    var localCA: String?

    static let none = TLSListeners(main: nil, certificate: nil)

    init(main: TLSContextSource?, certificate: CertificateListener?) {
        self.main = main
        self.certificate = certificate
    }

    init(_ configuration: GatewayConfiguration) throws(ConfigurationError) {
        guard let tls = configuration.tls else {
            self = .none
            return
        }
        main = try TLSContextSource(tls, requiresClientCertificate: false)
        certificate = try configuration.certificateAuthenticationPort.map { port throws(ConfigurationError) in
            CertificateListener(
                port: port,
                contexts: try TLSContextSource(tls, requiresClientCertificate: true),
                trust: try ClientCertificateTrust(configuration.merchants)
            )
        }
    }

    var sources: [TLSContextSource] { [main, certificate?.contexts].compactMap { $0 } }
}

/// Reads the TLS certificate and key again on SIGHUP, and when either file changes (checked
/// every few seconds: a stat of two files). New connections get the new certificate; open ones
/// keep theirs. A file that cannot be used is logged and the old certificate stays.
struct TLSReloadService: Service {
    let listeners: TLSListeners
    let logger: Logger
    var pollInterval: Duration = .seconds(5)

    func run() async throws {
        guard let settings = listeners.main?.settings else { return }
        let signals = await UnixSignalsSequence(trapping: .sighup)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await _ in signals.cancelOnGracefulShutdown() { reload(because: "SIGHUP") }
            }
            group.addTask {
                var seen = Self.modificationDates(settings)
                while !Task.isCancelled, !Task.isShuttingDownGracefully {
                    try? await Task.sleep(for: pollInterval)
                    let now = Self.modificationDates(settings)
                    if now != seen {
                        seen = now
                        reload(because: "certificate file changed")
                    }
                }
            }
            try await gracefulShutdown()
            group.cancelAll()
        }
    }

    private func reload(because reason: String) {
        do {
            for source in listeners.sources { try source.reload() }
            logger.notice("TLS certificate reloaded (\(reason))")
        } catch {
            logger.error("TLS certificate not reloaded (\(reason)): \(error.description); the previous one stays")
        }
    }

    private static func modificationDates(_ settings: GatewayConfiguration.TLSSettings) -> [Date?] {
        [settings.certificatePath, settings.privateKeyPath].map {
            (try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date
        }
    }
}
