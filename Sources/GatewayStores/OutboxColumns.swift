import Foundation
import GatewayCore

/// The outbox's columns as both stores select them, and a notification read back from a row.
enum OutboxColumns {
    static let selectList =
        "id, merchant_id, order_id, transaction_id, url, status, attempts, created_at_ms, next_attempt_at_ms, "
        + "delivered_at_ms, last_error"

    static func notification(_ row: some StoredRow) throws -> OutboxNotification {
        OutboxNotification(
            id: try row.integer("id"),
            merchantId: try row.text("merchant_id"),
            orderId: try row.text("order_id"),
            transactionId: try row.text("transaction_id"),
            url: try row.text("url"),
            status: try StoredColumn.decode(OutboxNotification.Status.self, try row.text("status"), column: "notification_outbox.status"),
            attempts: Int(try row.integer("attempts")),
            createdAt: Date(milliseconds: try row.integer("created_at_ms")),
            nextAttemptAt: Date(milliseconds: try row.integer("next_attempt_at_ms")),
            deliveredAt: try row.optionalInteger("delivered_at_ms").map { Date(milliseconds: $0) },
            lastError: try row.optionalText("last_error")
        )
    }

    /// The due, unleased notifications that are the oldest pending one of their order (an
    /// order's later ones wait for it, so they go in transaction order). `now` is the
    /// placeholder of the current time in milliseconds; `skipping`, a condition on
    /// `o.merchant_id` leaving out the merchants the delivery loop skips.
    static func dueCondition(now: String, skipping: String? = nil) -> String {
        """
        o.status = 'PENDING' AND o.next_attempt_at_ms <= \(now) AND (o.lease_until_ms IS NULL OR o.lease_until_ms < \(now))
        AND NOT EXISTS (SELECT 1 FROM notification_outbox e WHERE e.merchant_id = o.merchant_id
            AND e.order_id = o.order_id AND e.status = 'PENDING' AND e.id < o.id)
        """ + (skipping.map { " AND \($0)" } ?? "")
    }
}
