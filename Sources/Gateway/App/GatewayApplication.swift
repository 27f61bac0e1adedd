import ApplePaySandbox
import ApplePayToken
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// What the service runs on, assembled once from the configuration. Tests build it the same way
/// with a fixed clock and a temporary store.
struct GatewayServices: Sendable {
    var configuration: GatewayConfiguration
    var merchants: [String: Merchant]
    var store: any TransactionStore
    var decryptor: ApplePayTokenDecryptor
    /// Present in sandbox mode only: mints tokens its own decryptor trusts.
    var sandboxIssuer: SandboxTokenIssuer?
    var clock: @Sendable () -> Date
    /// This gateway's own registry: tests build many gateways in one process.
    var metrics = GatewayMetrics()

    /// Loads keys and trust roots and opens the store.
    init(
        configuration: GatewayConfiguration,
        clock: @escaping @Sendable () -> Date = { Date() },
        store: (any TransactionStore)? = nil
    ) throws {
        self.configuration = configuration
        self.clock = clock
        var merchants: [String: Merchant] = [:]
        for settings in configuration.merchants {
            guard merchants[settings.id] == nil else {
                throw ConfigurationError(key: "merchants", problem: "lists \(settings.id) twice")
            }
            merchants[settings.id] = try MerchantLoader.load(settings)
        }
        self.merchants = merchants
        var roots = TrustRoots.apple
        for (index, path) in configuration.trustRootPaths.enumerated() {
            let key = "applePay.trustRoots[\(index)]"
            do {
                roots = roots.adding(try KeyMaterial.certificates(from: MerchantLoader.read(path, key: key)))
            } catch let error as ApplePayTokenError {
                throw ConfigurationError(key: key, problem: "is not a certificate: \(error.reason)")
            }
        }
        if configuration.mode == .sandbox {
            let issuer = try Self.sandboxIssuer(directory: configuration.sandboxAuthorityDirectory)
            roots = roots.adding([issuer.authority.root])
            sandboxIssuer = issuer
        }
        self.decryptor = ApplePayTokenDecryptor(
            trustRoots: roots,
            signingTimeWindow: configuration.signingTimeWindow,
            clock: clock
        )
        self.store = TimedTransactionStore(base: try store ?? configuration.openStore(), metrics: metrics)
    }

    /// The sandbox authority, generated on first use and kept, so tokens minted yesterday verify today.
    private static func sandboxIssuer(directory: String) throws -> SandboxTokenIssuer {
        do {
            let authority = try SandboxAuthority.loadOrCreate(at: URL(fileURLWithPath: directory))
            return SandboxTokenIssuer(authority: authority, directory: directory)
        } catch {
            throw ConfigurationError(key: "sandbox.authorityDirectory", problem: "cannot be used: \(error)")
        }
    }
}

extension GatewayServices {
    /// Which roots Apple Pay signatures may chain to, as the start-up line says it.
    var trustDescription: String {
        var trusted = ["Apple Root CA - G3"]
        if let sandboxIssuer { trusted.append("the sandbox root in \(sandboxIssuer.directory)") }
        if !configuration.trustRootPaths.isEmpty { trusted.append("\(configuration.trustRootPaths.count) configured root(s)") }
        return "trusting " + (trusted.count == 1 ? "Apple Root CA - G3 alone" : trusted.joined(separator: ", "))
    }
}

/// The router with every route and the MPGS error handling.
func buildRouter(_ services: GatewayServices) -> Router<GatewayRequestContext> {
    let router = Router(context: GatewayRequestContext.self)
    // Outermost first: the log line and the metrics see the final status of every request.
    router.addMiddleware {
        RequestObservationMiddleware(metrics: services.metrics)
        MPGSErrorMiddleware()
    }
    HealthRoutes(
        store: services.store,
        merchants: services.merchants,
        configuredIdentities: services.configuration.merchants.map(\.identities.count).reduce(0, +),
        metrics: services.metrics,
        decryptor: services.decryptor
    ).register(on: router)
    let locks = OrderLocks()
    let routes = GatewayRoutes(
        authentication: MerchantAuthentication(merchants: services.merchants),
        processor: PaymentProcessor(
            store: services.store,
            decryptor: services.decryptor,
            locks: locks,
            clock: services.clock,
            metrics: services.metrics
        ),
        orderOperations: OrderOperationProcessor(
            store: services.store,
            locks: locks,
            clock: services.clock,
            metrics: services.metrics
        ),
        maxBodyBytes: services.configuration.limits.maxBodyBytes,
        metrics: services.metrics
    )
    routes.register(on: router)
    if let issuer = services.sandboxIssuer {
        SandboxRoutes(
            authentication: routes.authentication,
            issuer: issuer,
            maxBodyBytes: services.configuration.limits.maxBodyBytes,
            clock: services.clock
        ).register(on: router)
    }
    return router
}

/// The HTTP server, ready to run.
func buildApplication(_ services: GatewayServices, logger: Logger) -> some ApplicationProtocol {
    let configuration = services.configuration
    let startLine =
        "Apple Pay gateway in \(configuration.mode.rawValue) mode, merchants: "
        + services.merchants.keys.sorted().joined(separator: ", ") + "; " + services.trustDescription
    let limits = configuration.limits
    return Application(
        router: buildRouter(services),
        server: HTTPServerBuilder { responder in
            HeadDeadlineHTTP1Channel(
                responder: responder,
                headTimeout: .seconds(Int64(limits.headerTimeoutSeconds)),
                idleTimeout: .seconds(Int64(limits.idleTimeoutSeconds))
            )
        },
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "applepay-gateway",
            // At the accept level: past the cap the server stops accepting, and new connections
            // wait in the kernel's backlog until one closes (no connection is accepted and dropped).
            availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)
        ),
        onServerRunning: { channel in
            logger.notice("\(startLine); listening on http://\(configuration.host):\(channel.localAddress?.port ?? configuration.port)")
        },
        logger: logger
    )
}
