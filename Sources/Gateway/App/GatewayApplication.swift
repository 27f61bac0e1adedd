import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore
import GatewayHTTP
import GatewayNotifications
import GatewayObservability
import GatewayTransport
import Hummingbird
import HummingbirdCore
import Logging
import MPGSAPI
import MerchantConsole
import NIOCore
import RadialAPI
import WebCheckout

/// The router with every route and the MPGS error handling. With `clientCertificates` (the
/// certificate-authentication listener), each request's client certificate decides its merchant.
func buildRouter(_ services: GatewayDependencies, clientCertificates: ClientCertificateTrust? = nil) -> Router<GatewayRequestContext> {
    let router = Router(context: GatewayRequestContext.self)
    // Outermost first: the log line and the metrics see the final status of every request.
    router.addMiddleware {
        RequestObservationMiddleware(metrics: services.metrics)
        MPGSErrorMiddleware()
    }
    if let clientCertificates {
        router.add(middleware: ClientCertificateMiddleware(trust: clientCertificates, clock: services.clock))
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
        observer: services.metrics,
        authentications: services.authenticationStore
    )
    // 3-D Secure is simulated in sandbox mode only (production reaches no directory server).
    let authentications = AuthenticationProcessor(
        store: services.authenticationStore,
        locks: environment.locks,
        clock: services.clock,
        simulated: services.configuration.mode == .sandbox
    )
    environment.outbox = services.outbox
    environment.notificationDoorbell = services.notificationDoorbell
    // Only where a delivery loop will take them.
    if services.outbox != nil { environment.justRecorded = services.justRecorded }
    let sessions = services.sessionService
    let tokens = TokenService(store: services.tokenStore, cipher: services.sessionCipher, clock: services.clock)
    let routes = GatewayRoutes(
        authentication: MerchantAuthentication(merchants: services.merchants),
        processor: PaymentProcessor(environment, decryptor: services.decryptor, googlePayDecryptor: services.googlePayDecryptor),
        orderOperations: OrderOperationProcessor(environment),
        maxBodyBytes: services.configuration.limits.maxBodyBytes,
        metrics: services.metrics,
        sessions: sessions,
        fingerprinter: services.fingerprinter,
        tokens: tokens,
        authentications: authentications,
        // Issue 64: the provider's page is the sandbox's own.
        browserPayments: services.configuration.mode == .sandbox
            ? BrowserPaymentProcessor(environment, confirmations: services.browserPaymentConfirmations) : nil
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
    var sandboxApplePay: SandboxApplePayRoutes?
    var sandboxGooglePay: SandboxGooglePayRoutes?
    if services.configuration.mode == .sandbox {
        ACSRoutes(processor: authentications, maxBodyBytes: services.configuration.limits.maxBodyBytes).register(on: router)
        if let threeDS1 = authentications.threeDS1 {
            ThreeDS1ACSRoutes(processor: threeDS1, maxBodyBytes: services.configuration.limits.maxBodyBytes).register(on: router)
        }
        if let browserPayments = routes.browserPayments {
            BrowserPaymentRoutes(
                processor: browserPayments,
                authentication: routes.authentication,
                sessions: sessions,
                maxBodyBytes: services.configuration.limits.maxBodyBytes
            ).register(on: router)
        }
        if let issuer = services.sandboxIssuer {
            sandboxApplePay = SandboxApplePayRoutes(
                merchants: services.merchants,
                issuer: issuer,
                maxBodyBytes: services.configuration.limits.maxBodyBytes,
                clock: services.clock
            )
            sandboxApplePay?.register(on: router)
        }
        // Google Pay's pay.js and the token its sheet gets (issue 65).
        if let minter = services.googlePayMinter {
            sandboxGooglePay = SandboxGooglePayRoutes(
                merchants: services.merchants,
                minter: minter,
                maxBodyBytes: services.configuration.limits.maxBodyBytes,
                clock: services.clock
            )
            sandboxGooglePay?.register(on: router)
        }
    }
    // Hosted Checkout: the scripts, the payment page and its payments (issue 60).
    HostedCheckoutRoutes(
        payments: HostedCheckoutPayments(routes: routes),
        sandboxApplePay: sandboxApplePay,
        sandboxGooglePay: sandboxGooglePay,
        maxBodyBytes: services.configuration.limits.maxBodyBytes
    ).register(on: router)
    // A pointer for a browser opening the gateway's address (issue 62).
    let sandbox = services.configuration.mode == .sandbox
    router.get("/") { _, _ in RootPage.response(sandbox: sandbox) }
    // Hosted Session: session.js and its field iframes (issue 61).
    HostedSessionRoutes().register(on: router)
    ThreeDSRoutes().register(on: router)
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
            googlePay: services.googlePayMinter,
            maxBodyBytes: services.configuration.limits.maxBodyBytes,
            clock: services.clock
        ).register(on: router)
    }
    // Merchant Administration (/ma/): the same order processor as the API.
    if let consoleStore = services.consoleStore {
        ConsoleRoutes(
            services: ConsoleServices(
                store: consoleStore,
                transactions: services.store,
                merchants: services.merchants,
                orderOperations: OrderOperationProcessor(environment),
                fingerprinter: services.fingerprinter,
                encoding: MPGSResponseEncoding.encoder,
                policy: services.consolePolicy,
                passwordChecks: services.passwordChecks,
                // The session cookie is `Secure` whenever the gateway serves HTTPS itself.
                secureCookies: services.configuration.tls != nil,
                clock: services.clock,
                identities: ConsoleApplePayIdentities(root: services.consoleIdentityRoot),
                sandbox: services.sandboxIssuer.map { issuer in
                    ConsoleSandboxPayments(
                        payment: SandboxConsolePayment(
                            issuer: issuer,
                            googlePay: services.googlePayMinter,
                            processor: routes.processor,
                            fingerprinter: services.fingerprinter
                        )
                    )
                },
                outbox: services.outbox,
                riskReviews: services.riskReviews.map { RiskReviewProcessor(environment, store: $0) }
            )
        ).register(on: router)
    }
    return router
}

/// The HTTP server, ready to run: the one assembly point `gateway serve` and the in-process
/// tests share. It runs the store's services (PostgreSQL's pool) and brings the store's schema
/// up to date before the server accepts a connection.
func buildApplication(
    _ services: GatewayDependencies,
    logger: Logger,
    tls: TLSListeners = .none
) -> some ApplicationProtocol {
    let configuration = services.configuration
    let startLine =
        "Apple Pay gateway in \(configuration.mode.rawValue) mode, merchants: "
        + services.merchants.keys.sorted().joined(separator: ", ") + "; " + services.trustDescription
    var application = listenerApplication(
        router: buildRouter(services),
        port: configuration.port,
        contexts: tls.main,
        services: services,
        logger: logger
    ) { port in
        let scheme = tls.main == nil ? "http" : "https"
        logger.notice("\(startLine); listening on \(scheme)://\(configuration.host):\(port)")
        if let localCA = tls.localCA {
            logger.notice(
                "HTTPS certificate from the sandbox's local CA; try: curl --cacert \(localCA) https://\(configuration.host):\(port)/api/rest/version/100/information"
            )
        }
    }
    // The store's pool starts and stops with the server (the group stops the server first).
    application.addServices(services.storeServices)
    // ---- webhooks: added after the pool, so it stops first ----
    if let outbox = services.outbox {
        application.addServices(
            NotificationDelivery(
                outbox: outbox,
                doorbell: services.notificationDoorbell,
                justRecorded: services.justRecorded,
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
    let (prepared, preparedSignal) = AsyncStream<Never>.makeStream()
    if let certificate = tls.certificate {
        // Issue 32: the certificate listener shares the store and the routes, and accepts
        // connections only once the main listener has brought the store up to date.
        var certificateApplication = listenerApplication(
            router: buildRouter(services, clientCertificates: certificate.trust),
            port: certificate.port,
            contexts: certificate.contexts,
            acceptsAnyClientCertificate: true,
            services: services,
            logger: logger
        ) { port in
            logger.notice("certificate authentication listening on https://\(configuration.host):\(port)")
        }
        certificateApplication.beforeServerStarts {
            for await _ in prepared {}
        }
        application.addServices(certificateApplication)
    }
    if tls.main != nil { application.addServices(TLSReloadService(listeners: tls, logger: logger)) }
    // API password rotations from Merchant Administration: applied before the first request;
    // followed every few seconds when other replicas share the store.
    let passwordRefresh = services.consoleStore.map {
        APIPasswordRefresh(store: $0, merchants: services.merchants, interval: APIPasswordRefresh.sharedStoreInterval, logger: logger)
    }
    if let passwordRefresh, services.storeIsShared { application.addServices(passwordRefresh) }
    application.beforeServerStarts {
        defer { preparedSignal.finish() }
        try await services.store.prepare()
        try await passwordRefresh?.apply()
    }
    return application
}

/// One listener: plain HTTP/1.1 without `contexts`, else HTTPS with HTTP/2 and HTTP/1.1.
private func listenerApplication(
    router: Router<GatewayRequestContext>,
    port: Int,
    contexts: TLSContextSource?,
    acceptsAnyClientCertificate: Bool = false,
    services: GatewayDependencies,
    logger: Logger,
    running: @escaping @Sendable (Int) -> Void
) -> Application<RouterResponder<GatewayRequestContext>> {
    let configuration = services.configuration
    let limits = configuration.limits
    let connectionLimits = limits.connectionLimits
    let admission = ConnectionAdmission(maxConnections: limits.maxConnections, logger: logger)
    let serverName = "applepay-gateway"
    // The channels call the router themselves (RouterCall), not through Hummingbird's responder.
    let routes = router.buildResponder()
    let call = RouterCall(
        respond: { request, context in try await routes.respond(to: request, context: context) },
        serverName: serverName,
        tracer: services.stageLog?.tracer
    )
    return Application(
        responder: routes,
        server: HTTPServerBuilder { _ in
            if let contexts {
                return GatewayTLSChannel(
                    router: call,
                    limits: connectionLimits,
                    admission: admission,
                    answers: FrontEndRefusals.answers,
                    context: { contexts.current },
                    http2Budget: services.metrics.http2Responses,
                    acceptsAnyClientCertificate: acceptsAnyClientCertificate
                )
            }
            return GatewayHTTP1Channel(router: call, limits: connectionLimits, admission: admission, answers: FrontEndRefusals.answers)
        },
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: port),
            serverName: serverName,
            // At the accept level: past the cap the server stops accepting, and new connections
            // wait in the kernel's backlog until one closes (no connection is accepted and dropped).
            availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)
        ),
        onServerRunning: { channel in running(channel.localAddress?.port ?? port) },
        eventLoopGroupProvider: .shared(services.eventLoops),
        logger: logger
    )
}
