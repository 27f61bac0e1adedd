import Foundation
import GatewayCore

/// An operator's risk review decision, the same on SQLite and PostgreSQL (``StoreStatement``):
/// the receipt's review columns and the response rendered again, then the notification. Each
/// store runs the two in one database transaction.
enum RiskReviewStatements {
    /// Changes a row only while its review is still PENDING, so two operators cannot both decide.
    static func update(_ review: RiskReviewRecord) -> StoreStatement {
        let receipt = review.receipt
        let risk = receipt.risk
        return StoreStatement(
            """
            UPDATE transactions SET risk_review_decision = ?, risk_review_operator = ?, risk_review_at_ms = ?,
                response_format = ?, response_body = ?
            WHERE merchant_id = ? AND order_id = ? AND transaction_id = ? AND risk_review_decision = 'PENDING'
            RETURNING 1
            """,
            [
                StoredValue(risk?.review.decision.rawValue), StoredValue(risk?.review.operatorName),
                StoredValue(risk?.review.time?.milliseconds), .text(review.response.format.rawValue), .bytes(review.response.bytes),
                .text(receipt.merchantId), .text(receipt.orderId), .text(receipt.transactionId),
            ]
        )
    }

    /// The notification the decision queues (its `order_url` a literal: SQLite keeps it as an
    /// integer, PostgreSQL as a boolean, and both read TRUE and FALSE).
    static func notification(_ review: RiskReviewRecord, _ notification: QueuedNotification) -> StoreStatement {
        StoreStatement(
            """
            INSERT INTO notification_outbox
                (merchant_id, order_id, transaction_id, url, order_url, status, created_at_ms, next_attempt_at_ms)
            VALUES (?, ?, ?, ?, \(notification.isOrderURL ? "TRUE" : "FALSE"), 'PENDING', ?, ?)
            """,
            [
                .text(review.receipt.merchantId), .text(review.receipt.orderId), .text(review.receipt.transactionId),
                .text(notification.url), .integer(review.time.milliseconds), .integer(review.time.milliseconds),
            ]
        )
    }
}
