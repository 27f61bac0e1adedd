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
        self.decryptor = ApplePayTokenDecryptor(
            trustRoots: roots,
            signingTimeWindow: configuration.signingTimeWindow,
            clock: clock
        )
        self.store = TimedTransactionStore(base: try store ?? configuration.openStore(), metrics: metrics)
    }
}

/// The router with every route and the MPGS error handling.
func buildRouter(_ services: GatewayServices) -> Router<GatewayRequestContext> {
    let router = Router(context: GatewayRequestContext.self)
    // Outermost first: the log line and the metrics see the final status of every request.
    router.addMiddleware {
        RequestLogMiddleware()
        RequestMetricsMiddleware(metrics: services.metrics)
        MPGSErrorMiddleware()
        OperationsMethodMiddleware()
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
    return router
}

/// The HTTP server, ready to run.
func buildApplication(_ services: GatewayServices, logger: Logger) -> some ApplicationProtocol {
    let configuration = services.configuration
    let roots = services.decryptor.trustRoots.certificates.count - 1
    let startLine =
        "Apple Pay gateway in \(configuration.mode.rawValue) mode, merchants: "
        + services.merchants.keys.sorted().joined(separator: ", ")
        + "; trusting Apple Root CA - G3\(roots > 0 ? " and \(roots) configured root(s)" : " only")"
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
