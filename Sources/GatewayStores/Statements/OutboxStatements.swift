import Foundation
import GatewayCore

/// The notification outbox's statements, the same on SQLite and PostgreSQL (``StoreStatement``).
/// Taking leases and marking deliveries stay with each store (their files say why).
enum OutboxStatements {
    /// The URL the order's latest notification was sent to, when it was the order's own.
    static func orderNotificationURL(merchantId: String, orderId: String) -> StoreStatement {
        StoreStatement(
            """
            SELECT url FROM notification_outbox WHERE merchant_id = ? AND order_id = ? AND order_url = TRUE
            ORDER BY id DESC LIMIT 1
            """,
            [.text(merchantId), .text(orderId)]
        )
    }

    /// A failed attempt, written only by the lease's owner: retried at `retryAt`, or given up.
    static func attemptFailed(id: Int64, owner: String, cause: String, retryAt: Date?) -> StoreStatement {
        StoreStatement(
            """
            UPDATE notification_outbox SET status = ?, next_attempt_at_ms = coalesce(?, next_attempt_at_ms),
                last_error = ?, lease_owner = NULL, lease_until_ms = NULL
            WHERE id = ? AND lease_owner = ? AND status = 'PENDING' RETURNING 1
            """,
            [
                .text(retryAt == nil ? "FAILED" : "PENDING"), retryAt.map { .integer($0.milliseconds) } ?? .null, .text(cause),
                .integer(id), .text(owner),
            ]
        )
    }

    /// The newest notifications, of one status and one merchant where given. The casts give
    /// PostgreSQL the type of a value that may be NULL.
    static func notifications(merchantId: String?, status: OutboxNotification.Status?, limit: Int) -> StoreStatement {
        StoreStatement(
            """
            SELECT \(OutboxColumns.selectList) FROM notification_outbox
            WHERE (CAST(?1 AS TEXT) IS NULL OR status = ?1) AND (CAST(?2 AS TEXT) IS NULL OR merchant_id = ?2)
            ORDER BY id DESC LIMIT ?3
            """,
            [status.map { .text($0.rawValue) } ?? .null, merchantId.map(StoredValue.text) ?? .null, .integer(Int64(limit))]
        )
    }

    static func notification(id: Int64) -> StoreStatement {
        StoreStatement("SELECT \(OutboxColumns.selectList) FROM notification_outbox WHERE id = ?", [.integer(id)])
    }

    /// Sent again from the start, as if made at `time`.
    static func redeliver(id: Int64, at time: Date) -> StoreStatement {
        StoreStatement(
            """
            UPDATE notification_outbox SET status = 'PENDING', attempts = 0, next_attempt_at_ms = ?,
                created_at_ms = ?, delivered_at_ms = NULL, lease_owner = NULL, lease_until_ms = NULL
            WHERE id = ? RETURNING 1
            """,
            [.integer(time.milliseconds), .integer(time.milliseconds), .integer(id)]
        )
    }

    static let pendingBacklog = StoreStatement(
        "SELECT count(*) AS pending, min(created_at_ms) AS oldest FROM notification_outbox WHERE status = 'PENDING'"
    )

    /// The row of ``pendingBacklog``.
    static func backlog(_ row: some StoredRow) throws -> OutboxBacklog {
        OutboxBacklog(
            pending: Int(try row.integer("pending")),
            oldestPendingCreatedAt: try row.optionalInteger("oldest").map { Date(milliseconds: $0) }
        )
    }
}
