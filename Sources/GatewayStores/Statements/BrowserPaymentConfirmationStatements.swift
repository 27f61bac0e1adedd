import Foundation
import GatewayCore

/// A CONFIRM_BROWSER_PAYMENT's writes (issue 64), the same on SQLite and PostgreSQL
/// (``StoreStatement``): the order, then the transaction's row (the same transaction id), then
/// the notification, in one database transaction. The order's update is the guard: it changes
/// the order only at the version the confirmation was decided on and while the transaction
/// still awaits confirmation; nothing is written when it changes nothing.
enum BrowserPaymentConfirmationStatements {
    /// The order as the confirmation leaves it; a successful one opens it, as a payment does.
    /// PostgreSQL holds the order's row from here to the commit, so a second confirmation on
    /// another replica waits, then finds the version moved.
    static func updateOrder(_ confirmation: BrowserPaymentConfirmationRecord) -> StoreStatement {
        let record = confirmation.record
        let order = record.order
        // A literal: SQLite keeps the flag as an integer, PostgreSQL as a boolean; both read TRUE.
        let opens = record.opensOrder ? "initial_succeeded = TRUE, " : ""
        return StoreStatement(
            """
            UPDATE orders SET amount_minor = ?, status = ?, total_authorized_minor = ?, total_captured_minor = ?,
                total_refunded_minor = ?, \(opens)updated_at_ms = ?, version = version + 1
            WHERE merchant_id = ? AND order_id = ? AND version = ? AND EXISTS (
                SELECT 1 FROM transactions WHERE merchant_id = ? AND order_id = ? AND transaction_id = ?
                    AND browser_payment_confirmation = '\(MerchantConfirmation.Status.awaiting.rawValue)')
            RETURNING 1
            """,
            [
                .integer(order.amountMinorUnits), .text(order.status.rawValue), .integer(order.totalAuthorizedMinorUnits),
                .integer(order.totalCapturedMinorUnits), .integer(order.totalRefundedMinorUnits), .integer(record.time.milliseconds),
                .text(record.merchantId), .text(record.orderId), .integer(confirmation.expectedOrderVersion),
                .text(record.merchantId), .text(record.orderId), .text(record.transactionId),
            ]
        )
    }

    /// The transaction's outcome, amount, time, receipt columns and answer (after the order's
    /// guard, so it finds the row awaiting confirmation).
    static func updateTransaction(_ confirmation: BrowserPaymentConfirmationRecord) -> StoreStatement {
        let record = confirmation.record
        let receiptAssignments = ReceiptColumns.names.map { "\($0) = ?" }.joined(separator: ", ")
        return StoreStatement(
            """
            UPDATE transactions SET result = ?, gateway_code = ?, amount_minor = ?, created_at_ms = ?,
                succeeded = \(record.succeeded ? "TRUE" : "FALSE"), response_format = ?, response_body = ?, \(receiptAssignments)
            WHERE merchant_id = ? AND order_id = ? AND transaction_id = ?
                AND browser_payment_confirmation = '\(MerchantConfirmation.Status.awaiting.rawValue)'
            RETURNING 1
            """,
            [
                .text(record.result.rawValue), .text(record.gatewayCode.rawValue), .integer(record.amountMinorUnits),
                .integer(record.time.milliseconds), .text(record.response.format.rawValue), .bytes(record.response.bytes),
            ] + ReceiptColumns.values(record.receipt) + [
                .text(record.merchantId), .text(record.orderId), .text(record.transactionId),
            ]
        )
    }

    /// The notification the confirmation queues (`order_url` a literal, as the risk review's).
    static func notification(_ record: TransactionRecord, _ notification: QueuedNotification) -> StoreStatement {
        StoreStatement(
            """
            INSERT INTO notification_outbox
                (merchant_id, order_id, transaction_id, url, order_url, status, created_at_ms, next_attempt_at_ms)
            VALUES (?, ?, ?, ?, \(notification.isOrderURL ? "TRUE" : "FALSE"), 'PENDING', ?, ?)
            """,
            [
                .text(record.merchantId), .text(record.orderId), .text(record.transactionId), .text(notification.url),
                .integer(record.time.milliseconds), .integer(record.time.milliseconds),
            ]
        )
    }

    /// Thrown inside the database transaction, undoing it, if the transaction's update found no
    /// row after the order's guard found it: a store this gateway did not write.
    struct TransactionRowMissing: Error, CustomStringConvertible {
        var description: String { "the browser payment awaiting confirmation was not there to update" }
    }
}
