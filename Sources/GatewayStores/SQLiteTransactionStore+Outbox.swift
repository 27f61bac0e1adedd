import Foundation
import GatewayCore

/// The notification outbox in the SQLite file (``OutboxStatements``): leases and outcomes on the writer's queue (one
/// process owns the file, but the lease still keeps a redelivery from racing a send), reads on
/// the reader connection.
extension SQLiteTransactionStore: NotificationOutbox {
    package func orderNotificationURL(merchantId: String, orderId: String) async throws -> String? {
        try await rows(OutboxStatements.orderNotificationURL(merchantId: merchantId, orderId: orderId)) { try $0.text("url") }.first
    }

    // Leases stay SQLite's own: with no `FOR UPDATE SKIP LOCKED` (one writer needs none), the
    // due rows are found by the pending index named, then leased one by one in a transaction.
    package func leaseNotifications(
        owner: String,
        now: Date,
        leaseUntil: Date,
        limit: Int,
        skippingMerchants: Set<String>
    ) async throws -> [OutboxNotification] {
        let now = now.milliseconds
        let skipped = skippingMerchants.sorted()
        let skipping = skipped.isEmpty ? nil : "o.merchant_id NOT IN (\((3..<3 + skipped.count).map { "?\($0)" }.joined(separator: ", ")))"
        return try await writer.performUnsynced { connection in
            try connection.transaction {
                let ids = try connection.rows(
                    // By the pending index, in id order, stopping at the limit: SQLite's planner,
                    // without statistics, would read every due row through the due index and sort.
                    """
                    SELECT o.id FROM notification_outbox o INDEXED BY notification_outbox_pending
                    WHERE \(OutboxColumns.dueCondition(now: "?1", skipping: skipping)) ORDER BY o.id LIMIT ?2
                    """,
                    [.integer(now), .integer(Int64(limit))] + skipped.map { .text($0) }
                ).map { try $0.integer("id") }
                return try ids.compactMap { id in
                    try connection.query(
                        "UPDATE notification_outbox SET lease_owner = ?, lease_until_ms = ?, attempts = attempts + 1 WHERE id = ?",
                        [.text(owner), .integer(leaseUntil.milliseconds), .integer(id)]
                    )
                    return try Self.notification(connection, id)
                }
            }
        }
    }

    // One statement per id in a transaction: SQLite has no arrays for PostgreSQL's `= ANY(...)`.
    package func notificationsDelivered(ids: [Int64], owner: String, at time: Date) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return try await writer.performUnsynced { connection in
            try connection.transaction {
                var marked: Set<Int64> = []
                for id in ids {
                    try connection.query(
                        """
                        UPDATE notification_outbox SET status = 'DELIVERED', delivered_at_ms = ?, lease_owner = NULL,
                            lease_until_ms = NULL, last_error = NULL
                        WHERE id = ? AND lease_owner = ? AND status = 'PENDING'
                        """,
                        [.integer(time.milliseconds), .integer(id), .text(owner)]
                    )
                    if connection.changes == 1 { marked.insert(id) }
                }
                return marked
            }
        }
    }

    package func notificationAttemptFailed(id: Int64, owner: String, cause: String, retryAt: Date?) async throws -> Bool {
        try await changedRow(OutboxStatements.attemptFailed(id: id, owner: owner, cause: cause, retryAt: retryAt))
    }

    package func notifications(merchantId: String?, status: OutboxNotification.Status?, limit: Int) async throws -> [OutboxNotification] {
        try await rows(OutboxStatements.notifications(merchantId: merchantId, status: status, limit: limit), OutboxColumns.notification)
    }

    package func notification(id: Int64) async throws -> OutboxNotification? {
        try await rows(OutboxStatements.notification(id: id), OutboxColumns.notification).first
    }

    package func redeliverNotification(id: Int64, at time: Date) async throws -> Bool {
        try await changedRow(OutboxStatements.redeliver(id: id, at: time))
    }

    package func notificationBacklog() async throws -> OutboxBacklog {
        try await rows(OutboxStatements.pendingBacklog, OutboxStatements.backlog).first ?? OutboxBacklog(pending: 0, oldestPendingCreatedAt: nil)
    }

    private static func notification(_ connection: SQLiteConnection, _ id: Int64) throws -> OutboxNotification? {
        try connection.rows(OutboxStatements.notification(id: id)).first.map(OutboxColumns.notification)
    }
}
