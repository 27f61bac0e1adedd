import Configuration
import Foundation
import GatewayConfigurationFile
import GatewayCore
import GatewayObservability
import GatewayStores
import Hummingbird
import Logging
import MPGSAPI
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The entry points the `gateway` command calls.
public enum GatewayService {
    /// Command-line settings that override every other source.
    public struct Overrides: Sendable {
        public var configFile: String?
        public var host: String?
        public var port: Int?
        /// Issue 32: `--tls`, HTTPS from the sandbox's local CA unless `server.tls.*` is set.
        public var tls: Bool
        public init(configFile: String? = nil, host: String? = nil, port: Int? = nil, tls: Bool = false) {
            self.configFile = configFile
            self.host = host
            self.port = port
            self.tls = tls
        }
    }

    /// Runs the server until SIGINT/SIGTERM. On either signal it stops accepting connections, lets
    /// the requests in flight finish (for at most `server.shutdownGracePeriodSeconds`, then they
    /// are cancelled), and closes the store.
    public static func serve(_ overrides: Overrides) async throws {
        // On the main thread: NIO installs its executor only from there (it checks, on Darwin).
        _ = await MainActor.run { EventLoopExecutor.installed }
        var configuration = try await loadConfiguration(overrides)
        var localCA: String?
        // With server.tls.* in production, --tls only confirms what the configuration does.
        if overrides.tls, configuration.mode == .sandbox || configuration.tls == nil {
            let (withTLS, authority) = try configuration.withSandboxTLS()
            configuration = withTLS
            localCA = authority.caPath
        }
        try configuration.checkCertificateListener()
        try StartupClaims.probeListenAddress(host: configuration.host, port: configuration.port)
        if case .sqlite(let path) = try configuration.storeLocation { try StartupClaims.lockSQLiteFile(path) }
        let logger = makeLogger(configuration)
        let services = try GatewayDependencies(configuration: configuration, keys: try await GatewayKeys.agreed(configuration))
        var tls = try TLSListeners(configuration)
        tls.localCA = localCA
        if let port = configuration.certificateAuthenticationPort {
            try StartupClaims.probeListenAddress(host: configuration.host, port: port)
        }
        // The application brings the store's schema up to date before it listens; this group
        // adds only the signals, the grace period and closing the store after the server.
        var group = ServiceGroupConfiguration(
            services: [
                .init(service: StoreClosingService(store: services.store, logger: logger)),
                .init(service: buildApplication(services, logger: logger, tls: tls)),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        group.maximumGracefulShutdownDuration = .seconds(configuration.limits.shutdownGracePeriodSeconds)
        try await ServiceGroup(configuration: group).run()
        logger.notice("shutdown complete")
    }

    /// The service's logger, in the configured format and level. Built here rather than through
    /// the process-wide `LoggingSystem.bootstrap`, which may run once only: every logger the
    /// service uses (Hummingbird's per-request ones, and the PostgreSQL pool's under its own label)
    /// derives from this one.
    /// The process's event loops: the listeners serve on them, and a store opened for the server
    /// or a command runs its commits and timers behind them.
    package static let eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

    package static func makeLogger(_ configuration: GatewayConfiguration, label: String = "gateway") -> Logger {
        var logger =
            switch configuration.logFormat {
            case .json: Logger(label: label) { JSONLogHandler(label: $0) }
            case .text: Logger(label: label) { RedactingLogHandler(wrapped: StreamLogHandler.standardOutput(label: $0)) }
            }
        logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
        return logger
    }

    /// Validates the configuration and its key material without serving; returns a summary.
    public static func checkConfiguration(
        _ overrides: Overrides,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> String {
        let configuration = try await loadConfiguration(overrides, environment: environment)
        let services = try GatewayDependencies(configuration: configuration, store: NoStore())
        let identities = services.merchants.values.map { $0.keyRing.identities.count }.reduce(0, +)
        var summary =
            "configuration is valid: \(configuration.mode.rawValue) mode, \(services.merchants.count) merchant(s), "
            + "\(identities) Apple Pay identit\(identities == 1 ? "y" : "ies"), store \(StoreLocation.redacted(configuration.storeURL))"
        // Sandbox only: the generated notification secret a receiver checks (production's is configured).
        if configuration.mode == .sandbox {
            for id in services.merchants.keys.sorted() {
                guard let secret = services.merchants[id]?.notifications?.secret else { continue }
                summary += "\nmerchant \(id) notification secret (X-Notification-Secret): \(secret)"
            }
        }
        return summary
    }

    /// A sandbox token for one of the configured merchants: the paymentData JSON text.
    /// Opens no store; needs sandbox mode, whose gateway is the only one that trusts such tokens.
    public static func mintToken(
        _ overrides: Overrides,
        merchantId: String,
        options: SandboxTokenOptions
    ) async throws -> String {
        let configuration = try await loadConfiguration(overrides)
        let services = try GatewayDependencies(configuration: configuration, store: NoStore())
        guard let issuer = services.sandboxIssuer else {
            throw ConfigurationError(key: "mode", problem: "is production: only a sandbox-mode gateway mints and trusts sandbox tokens")
        }
        guard let merchant = services.merchants[merchantId] else {
            throw ConfigurationError(key: "merchants", problem: "does not list \(merchantId)")
        }
        do {
            return try issuer.mint(options, for: merchant, now: services.clock()).paymentToken
        } catch {
            throw SandboxTokenOptionsError(field: error.field, explanation: error.explanation)
        }
    }

    package static func loadConfiguration(
        _ overrides: Overrides,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> GatewayConfiguration {
        try GatewayConfiguration.load(file: overrides.configFile, host: overrides.host, port: overrides.port, environment: environment)
    }
}
