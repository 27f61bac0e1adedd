import GatewayCore
import Logging
import ServiceLifecycle

/// Closes the store when the service group shuts down. Listed before the HTTP server, so the
/// group (which shuts down in reverse order) stops the server and lets its requests finish first.
struct StoreClosingService: Service {
    let store: any TransactionStore
    let logger: Logger

    func run() async throws {
        // Returns on graceful shutdown; throws on cancellation. Either way the store is closed.
        try? await gracefulShutdown()
        await store.close()
        logger.notice("store closed")
    }
}
