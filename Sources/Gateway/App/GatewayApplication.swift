import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import HummingbirdCore
import Logging
import MPGSAPI
import NIOCore
import RadialAPI

/// The router with every route and the MPGS error handling.
func buildRouter(_ services: GatewayDependencies) -> Router<GatewayRequestContext> {
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
    var environment = ProcessingEnvironment(
        store: services.store,
        clock: services.clock,
        observer: services.metrics
    )
    environment.outbox = services.outbox
    let sessions = SessionService(
        store: services.sessionStore,
        cipher: services.sessionCipher,
        lifetime: services.configuration.sessions.lifetime,
        clock: services.clock
    )
    let tokens = TokenService(store: services.tokenStore, cipher: services.sessionCipher, clock: services.clock)
    let routes = GatewayRoutes(
        authentication: MerchantAuthentication(merchants: services.merchants),
        processor: PaymentProcessor(environment, decryptor: services.decryptor),
        orderOperations: OrderOperationProcessor(environment),
        maxBodyBytes: services.configuration.limits.maxBodyBytes,
        metrics: services.metrics,
        sessions: sessions,
        fingerprinter: services.fingerprinter,
        tokens: tokens
    )
    routes.register(on: router)
    RadialRoutes(
        authentication: RadialAuthentication(merchants: services.merchants),
        processor: routes.processor,
        decryptor: services.decryptor,
        decryptMerchants: Set(services.configuration.merchants.filter(\.radialDecrypt).map(\.id)),
        maxBodyBytes: services.configuration.limits.maxBodyBytes,
        observer: services.metrics,
        clock: services.clock,
        fingerprinter: services.fingerprinter
    ).register(on: router)
    SessionRoutes(
        authentication: routes.authentication,
        sessions: sessions,
        decryptor: services.decryptor,
        maxBodyBytes: services.configuration.limits.maxBodyBytes
    ).register(on: router)
    TokenRoutes(
        authentication: routes.authentication,
        tokens: tokens,
        sessions: sessions,
        maxBodyBytes: services.configuration.limits.maxBodyBytes
    ).register(on: router)
    if let issuer = services.sandboxIssuer {
        SandboxRoutes(
            authentication: routes.authentication,
            issuer: issuer,
            sessions: sessions,
            maxBodyBytes: services.configuration.limits.maxBodyBytes,
            clock: services.clock
        ).register(on: router)
    }
    return router
}

/// The HTTP server, ready to run: the one assembly point `gateway serve` and the in-process
/// tests share. It runs the store's services (PostgreSQL's pool) and brings the store's schema
/// up to date before the server accepts a connection.
func buildApplication(_ services: GatewayDependencies, logger: Logger) -> some ApplicationProtocol {
    let configuration = services.configuration
    let startLine =
        "Apple Pay gateway in \(configuration.mode.rawValue) mode, merchants: "
        + services.merchants.keys.sorted().joined(separator: ", ") + "; " + services.trustDescription
    let limits = configuration.limits
    let connectionLimits = limits.connectionLimits
    let admission = ConnectionAdmission(maxConnections: limits.maxConnections, logger: logger)
    var application = Application(
        router: buildRouter(services),
        server: HTTPServerBuilder { responder in
            GatewayHTTP1Channel(responder: responder, limits: connectionLimits, admission: admission)
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
    // The store's pool starts and stops with the server (the group stops the server first).
    application.addServices(services.storeServices)
    // ---- webhooks: added after the pool, so it stops first ----
    if let outbox = services.outbox {
        application.addServices(
            NotificationDelivery(
                outbox: outbox,
                store: services.store,
                merchants: services.merchants,
                settings: configuration.notifications,
                production: configuration.mode == .production,
                metrics: NotificationMetrics(registry: services.metrics.registry),
                clock: services.clock,
                logger: logger
            )
        )
    }
    // ---- end webhooks ----
    application.beforeServerStarts { try await services.store.prepare() }
    return application
}
