import Foundation
import GatewayCore
import PostgresNIO

/// The notification outbox in the shared database (``OutboxStatements``). Every replica runs a delivery loop; a lease
/// is taken with `FOR UPDATE SKIP LOCKED`, so two replicas never take the same row, and expires,
/// so a replica that died mid-delivery leaves the row to another. Outcomes are written only by
/// the lease's owner.
extension PostgresTransactionStore: NotificationOutbox {
    package func orderNotificationURL(merchantId: String, orderId: String) async throws -> String? {
        try await rows(OutboxStatements.orderNotificationURL(merchantId: merchantId, orderId: orderId)) { try $0.text("url") }.first
    }

    // Leases stay PostgreSQL's own: one statement that takes the due rows `FOR UPDATE SKIP
    // LOCKED`, so replicas leasing at once never take the same row (SQLite has no row locks).
    package func leaseNotifications(
        owner: String,
        now: Date,
        leaseUntil: Date,
        limit: Int,
        skippingMerchants: Set<String>
    ) async throws -> [OutboxNotification] {
        let now = now.milliseconds
        var query = PostgresQuery(
            unsafeSQL: """
                UPDATE notification_outbox SET lease_owner = $2, lease_until_ms = $3, attempts = attempts + 1
                WHERE id IN (
                    SELECT o.id FROM notification_outbox o WHERE \(OutboxColumns.dueCondition(now: "$1", skipping: "o.merchant_id <> ALL($5)"))
                    ORDER BY o.id LIMIT $4 FOR UPDATE SKIP LOCKED)
                RETURNING \(OutboxColumns.selectList)
                """
        )
        query.binds.append(now)
        query.binds.append(owner)
        query.binds.append(leaseUntil.milliseconds)
        query.binds.append(Int64(limit))
        query.binds.append(skippingMerchants.sorted())
        return try await rows(query, OutboxColumns.notification).sorted { $0.id < $1.id }
    }

    // One statement over the ids as an array (SQLite, having none, runs one per id).
    package func notificationsDelivered(ids: [Int64], owner: String, at time: Date) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return Set(
            try await rows(
                """
                UPDATE notification_outbox SET status = 'DELIVERED', delivered_at_ms = \(time.milliseconds), lease_owner = NULL,
                    lease_until_ms = NULL, last_error = NULL
                WHERE id = ANY(\(ids)) AND lease_owner = \(owner) AND status = 'PENDING' RETURNING id
                """
            ) { try $0.integer("id") }
        )
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

    /// One statement through the pool, each row read by name.
    private func rows<Value: Sendable>(
        _ query: PostgresQuery,
        _ read: @escaping @Sendable (PostgresStoredRow) throws -> Value
    ) async throws -> [Value] {
        try await run { connection in
            var values: [Value] = []
            for try await row in try await connection.query(query, logger: self.logger) {
                values.append(try read(PostgresStoredRow(row)))
            }
            return values
        }
    }
}
