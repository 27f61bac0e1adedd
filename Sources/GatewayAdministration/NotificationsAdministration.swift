import Foundation
import Gateway
import GatewayConfigurationFile
import GatewayCore
import GatewayStores

/// What `gateway notifications list|show|redeliver` does: reads or requeues outbox rows in the
/// configured store. Prints no secret and no body (the transaction is Retrieve Transaction's).
public enum NotificationsAdministration {
    /// The newest notifications first, one line each.
    public static func list(_ overrides: GatewayService.Overrides, status: String?, limit: Int) async throws -> String {
        var wanted: OutboxNotification.Status?
        if let status {
            guard let parsed = OutboxNotification.Status(rawValue: status.uppercased()) else {
                throw ConfigurationError(key: "--status", problem: "must be pending, delivered or failed")
            }
            wanted = parsed
        }
        let rows = try await withOutbox(overrides) { try await $0.notifications(merchantId: nil, status: wanted, limit: limit) }
        guard !rows.isEmpty else { return "no notifications" }
        return ([header] + rows.map(line)).joined(separator: "\n")
    }

    public static func show(_ overrides: GatewayService.Overrides, id: Int64) async throws -> String {
        guard let row = try await withOutbox(overrides, { try await $0.notification(id: id) }) else {
            throw NotFound(id: id)
        }
        var lines = [
            "id: \(row.id)", "status: \(row.status.rawValue)", "merchant: \(row.merchantId)", "order: \(row.orderId)",
            "transaction: \(row.transactionId)", "url: \(row.url)", "attempts: \(row.attempts)",
            "created: \(iso(row.createdAt))",
        ]
        if row.status == .pending { lines.append("next attempt: \(iso(row.nextAttemptAt))") }
        if let delivered = row.deliveredAt { lines.append("delivered: \(iso(delivered))") }
        if let error = row.lastError { lines.append("last error: \(error)") }
        return lines.joined(separator: "\n")
    }

    /// Queues the notification again (a delivered one too: the receiver de-duplicates by id).
    public static func redeliver(_ overrides: GatewayService.Overrides, id: Int64) async throws -> String {
        guard try await withOutbox(overrides, { try await $0.redeliverNotification(id: id, at: Date()) }) else {
            throw NotFound(id: id)
        }
        return "notification \(id) queued for delivery"
    }

    public struct NotFound: Error, CustomStringConvertible {
        let id: Int64
        public var description: String { "no notification \(id)" }
    }

    /// The columns' names, above the rows (tab-separated, like them).
    private static let header = ["id", "status", "merchant", "order", "transaction", "attempts", "created", "last error"]
        .joined(separator: "\t")

    private static func line(_ row: OutboxNotification) -> String {
        [
            "\(row.id)", row.status.rawValue, row.merchantId, row.orderId, row.transactionId, "\(row.attempts)",
            iso(row.createdAt), row.lastError ?? "-",
        ].joined(separator: "\t")
    }

    private static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// The configured store, opened for one operation and closed again.
    private static func withOutbox<Value: Sendable>(
        _ overrides: GatewayService.Overrides,
        _ work: (any NotificationOutbox) async throws -> Value
    ) async throws -> Value {
        let configuration = try await GatewayService.loadConfiguration(overrides)
        let store: any TransactionStore & NotificationOutbox
        switch try configuration.storeLocation {
        case .sqlite(let path):
            store = try SQLiteTransactionStore(path: path, eventLoops: GatewayService.eventLoops)
        case .postgres(let location):
            store = PostgresTransactionStore(
                location: location,
                eventLoops: GatewayService.eventLoops,
                maxConnections: 1,
                timeout: configuration.storeTimeout,
                logger: GatewayService.makeLogger(configuration, label: "gateway.postgres")
            )
        }
        do {
            let value = try await work(store)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }
}
