import Foundation
import GatewayCore

/// The notification outbox in the SQLite file: leases and outcomes on the writer's queue (one
/// process owns the file, but the lease still keeps a redelivery from racing a send), reads on
/// the reader connection.
extension SQLiteTransactionStore: NotificationOutbox {
    package func orderNotificationURL(merchantId: String, orderId: String) async throws -> String? {
        try await run { connection in
            try connection.rows(
                """
                SELECT url FROM notification_outbox WHERE merchant_id = ? AND order_id = ? AND order_url = 1
                ORDER BY id DESC LIMIT 1
                """,
                [.text(merchantId), .text(orderId)]
            ).first.map { try $0.text("url") }
        }
    }

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
        try await writer.perform { connection in
            try connection.query(
                """
                UPDATE notification_outbox SET status = ?, next_attempt_at_ms = coalesce(?, next_attempt_at_ms),
                    last_error = ?, lease_owner = NULL, lease_until_ms = NULL
                WHERE id = ? AND lease_owner = ? AND status = 'PENDING'
                """,
                [
                    .text(retryAt == nil ? "FAILED" : "PENDING"), retryAt.map { .integer($0.milliseconds) } ?? .null,
                    .text(cause), .integer(id), .text(owner),
                ]
            )
            return connection.changes == 1
        }
    }

    package func notifications(merchantId: String?, status: OutboxNotification.Status?, limit: Int) async throws -> [OutboxNotification] {
        try await run { connection in
            try connection.rows(
                """
                SELECT \(OutboxColumns.selectList) FROM notification_outbox
                WHERE (?1 IS NULL OR status = ?1) AND (?3 IS NULL OR merchant_id = ?3) ORDER BY id DESC LIMIT ?2
                """,
                [SQLiteValue(status?.rawValue), .integer(Int64(limit)), SQLiteValue(merchantId)]
            ).map(OutboxColumns.notification)
        }
    }

    package func notification(id: Int64) async throws -> OutboxNotification? {
        try await run { connection in try Self.notification(connection, id) }
    }

    package func redeliverNotification(id: Int64, at time: Date) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                """
                UPDATE notification_outbox SET status = 'PENDING', attempts = 0, next_attempt_at_ms = ?,
                    created_at_ms = ?, delivered_at_ms = NULL, lease_owner = NULL, lease_until_ms = NULL
                WHERE id = ?
                """,
                [.integer(time.milliseconds), .integer(time.milliseconds), .integer(id)]
            )
            return connection.changes == 1
        }
    }

    package func notificationBacklog() async throws -> OutboxBacklog {
        try await run { connection in
            let row = try connection.rows(
                "SELECT count(*) AS pending, min(created_at_ms) AS oldest FROM notification_outbox WHERE status = 'PENDING'"
            ).first
            return OutboxBacklog(
                pending: Int(try row?.integer("pending") ?? 0),
                oldestPendingCreatedAt: try row?.optionalInteger("oldest").map { Date(milliseconds: $0) }
            )
        }
    }

    private static func notification(_ connection: SQLiteConnection, _ id: Int64) throws -> OutboxNotification? {
        try connection.rows(
            "SELECT \(OutboxColumns.selectList) FROM notification_outbox WHERE id = ?",
            [.integer(id)]
        ).first.map(OutboxColumns.notification)
    }
}
