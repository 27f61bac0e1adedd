import Foundation
import GatewayCore
import PostgresNIO

/// The notification outbox in the shared database. Every replica runs a delivery loop; a lease
/// is taken with `FOR UPDATE SKIP LOCKED`, so two replicas never take the same row, and expires,
/// so a replica that died mid-delivery leaves the row to another. Outcomes are written only by
/// the lease's owner.
extension PostgresTransactionStore: NotificationOutbox {
    package func orderNotificationURL(merchantId: String, orderId: String) async throws -> String? {
        try await rows(
            """
            SELECT url FROM notification_outbox WHERE merchant_id = \(merchantId) AND order_id = \(orderId) AND order_url
            ORDER BY id DESC LIMIT 1
            """
        ) { try $0.text("url") }.first
    }

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
        let status = retryAt == nil ? "FAILED" : "PENDING"
        let next = retryAt?.milliseconds
        return try await !rows(
            """
            UPDATE notification_outbox SET status = \(status), next_attempt_at_ms = coalesce(\(next), next_attempt_at_ms),
                last_error = \(cause), lease_owner = NULL, lease_until_ms = NULL
            WHERE id = \(id) AND lease_owner = \(owner) AND status = 'PENDING' RETURNING id
            """
        ) { try $0.integer("id") }.isEmpty
    }

    package func notifications(merchantId: String?, status: OutboxNotification.Status?, limit: Int) async throws -> [OutboxNotification] {
        let status = status?.rawValue
        return try await rows(
            """
            SELECT \(unescaped: OutboxColumns.selectList) FROM notification_outbox
            WHERE (\(status)::text IS NULL OR status = \(status)) AND (\(merchantId)::text IS NULL OR merchant_id = \(merchantId))
            ORDER BY id DESC LIMIT \(Int64(limit))
            """,
            OutboxColumns.notification
        )
    }

    package func notification(id: Int64) async throws -> OutboxNotification? {
        try await rows(
            "SELECT \(unescaped: OutboxColumns.selectList) FROM notification_outbox WHERE id = \(id)",
            OutboxColumns.notification
        ).first
    }

    package func redeliverNotification(id: Int64, at time: Date) async throws -> Bool {
        try await !rows(
            """
            UPDATE notification_outbox SET status = 'PENDING', attempts = 0, next_attempt_at_ms = \(time.milliseconds),
                created_at_ms = \(time.milliseconds), delivered_at_ms = NULL, lease_owner = NULL, lease_until_ms = NULL
            WHERE id = \(id) RETURNING id
            """
        ) { try $0.integer("id") }.isEmpty
    }

    package func notificationBacklog() async throws -> OutboxBacklog {
        let found = try await rows(
            "SELECT count(*)::bigint AS pending, min(created_at_ms) AS oldest FROM notification_outbox WHERE status = 'PENDING'"
        ) { row in
            OutboxBacklog(
                pending: Int(try row.integer("pending")),
                oldestPendingCreatedAt: try row.optionalInteger("oldest").map { Date(milliseconds: $0) }
            )
        }
        return found.first ?? OutboxBacklog(pending: 0, oldestPendingCreatedAt: nil)
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
