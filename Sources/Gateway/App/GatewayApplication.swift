import ApplePayToken
import Foundation
import Hummingbird
import Logging

/// What the service runs on, assembled once from the configuration. Tests build it the same way
/// with a fixed clock and a temporary store.
struct GatewayServices: Sendable {
    var configuration: GatewayConfiguration
    var merchants: [String: Merchant]
    var store: any TransactionStore
    var decryptor: ApplePayTokenDecryptor
    var clock: @Sendable () -> Date

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
        self.store = try store ?? configuration.openStore()
    }
}

/// The router with every route and the MPGS error handling.
func buildRouter(_ services: GatewayServices) -> Router<GatewayRequestContext> {
    let router = Router(context: GatewayRequestContext.self)
    router.addMiddleware {
        MPGSErrorMiddleware()
    }
    let locks = OrderLocks()
    let routes = GatewayRoutes(
        authentication: MerchantAuthentication(merchants: services.merchants),
        processor: PaymentProcessor(
            store: services.store,
            decryptor: services.decryptor,
            locks: locks,
            clock: services.clock
        ),
        orderOperations: OrderOperationProcessor(store: services.store, locks: locks, clock: services.clock)
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
    return Application(
        router: buildRouter(services),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "applepay-gateway"
        ),
        onServerRunning: { channel in
            logger.notice("\(startLine); listening on http://\(configuration.host):\(channel.localAddress?.port ?? configuration.port)")
        },
        logger: logger
    )
}
