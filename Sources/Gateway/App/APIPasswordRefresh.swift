import Foundation
import GatewayCore
import Logging
import ServiceLifecycle

/// Applies the API password rotations made in Merchant Administration to the merchants this
/// replica serves: once before the server accepts a connection, then every `interval` when
/// replicas share the store (a rotation on one replica reaches the others within it). A read
/// that fails keeps the passwords as they were and is retried at the next round.
struct APIPasswordRefresh: Service {
    let store: any ConsoleStore
    let merchants: [String: Merchant]
    let interval: Duration
    let logger: Logger

    static let sharedStoreInterval: Duration = .seconds(5)

    func apply() async throws {
        let changes = try await store.apiPasswordChanges()
        for merchant in merchants.values {
            merchant.passwords.apply(changes.filter { $0.merchantId == merchant.id })
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do { try await apply() } catch { logger.warning("API passwords not refreshed", metadata: ["error": "\(error)"]) }
            }
        }
    }
}
