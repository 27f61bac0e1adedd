import GatewayCore

/// The writes one transaction record makes: the replay record, the order, the transaction.
enum SQLiteRecordWriter {
    /// Runs inside the caller's transaction; conflicts are outcomes, not errors.
    static func write(_ record: TransactionRecord, _ connection: SQLiteConnection) throws -> RecordOutcome {
        if let existing = try SQLiteTransactionStore.storedTransaction(
            connection,
            record.merchantId,
            record.orderId,
            record.transactionId
        ) {
            return .duplicateTransaction(existing)
        }
        // The record's preconditions, as the core stated them: checked inside the caller's transaction.
        let current = try connection.rows(
            "SELECT version, initial_succeeded FROM orders WHERE merchant_id = ? AND order_id = ?",
            [.text(record.merchantId), .text(record.orderId)]
        ).first
        if record.isInitial && current?["initial_succeeded"].integer == 1 { return .orderAlreadySucceeded }
        guard current?["version"].integer == record.expectedOrderVersion else { return .orderChanged }
        if let applePayTransactionId = record.applePayTransactionId {
            do {
                try connection.query(
                    """
                    INSERT INTO apple_pay_transactions
                        (apple_pay_transaction_id, merchant_id, order_id, transaction_id, accepted_at_ms)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                    [
                        .text(applePayTransactionId), .text(record.merchantId), .text(record.orderId),
                        .text(record.transactionId), .integer(record.time.milliseconds),
                    ]
                )
            } catch let failure as SQLiteConnection.Failure where failure.isConstraintViolation {
                return .applePayReplay
            }
        }
        try upsertOrder(connection, record)
        try connection.query(
            """
            INSERT INTO transactions (merchant_id, order_id, transaction_id, operation, request_hash,
                response_body, result, gateway_code, amount_minor, currency, eci_indicator,
                apple_pay_transaction_id, created_at_ms, type, succeeded, target_transaction_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.merchantId), .text(record.orderId), .text(record.transactionId),
                .text(record.operation.rawValue), .blob(record.requestHash), .blob(record.responseBody),
                .text(record.result.rawValue), .text(record.gatewayCode.rawValue), .integer(record.amountMinorUnits),
                .text(record.currency), SQLiteValue(record.eciIndicator),
                SQLiteValue(record.applePayTransactionId), .integer(record.time.milliseconds),
                .text(record.transactionType.rawValue), .integer(record.succeeded ? 1 : 0),
                SQLiteValue(record.targetTransactionId),
            ]
        )
        if let target = record.voidedTransactionId {
            try connection.query(
                "UPDATE transactions SET voided = 1 WHERE merchant_id = ? AND order_id = ? AND transaction_id = ?",
                [.text(record.merchantId), .text(record.orderId), .text(target)]
            )
        }
        return .recorded
    }

    private static func upsertOrder(_ connection: SQLiteConnection, _ record: TransactionRecord) throws {
        let order = record.order
        try connection.query(
            """
            INSERT INTO orders (merchant_id, order_id, currency, amount_minor, status, total_authorized_minor,
                total_captured_minor, total_refunded_minor, wallet_provider, reference, initial_succeeded,
                created_at_ms, updated_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (merchant_id, order_id) DO UPDATE SET
                currency = excluded.currency, amount_minor = excluded.amount_minor, status = excluded.status,
                total_authorized_minor = excluded.total_authorized_minor,
                total_captured_minor = excluded.total_captured_minor,
                total_refunded_minor = excluded.total_refunded_minor,
                wallet_provider = excluded.wallet_provider, reference = excluded.reference,
                initial_succeeded = max(initial_succeeded, excluded.initial_succeeded),
                updated_at_ms = excluded.updated_at_ms, version = version + 1
            """,
            [
                .text(record.merchantId), .text(record.orderId), .text(order.currency),
                .integer(order.amountMinorUnits), .text(order.status.rawValue), .integer(order.totalAuthorizedMinorUnits),
                .integer(order.totalCapturedMinorUnits), .integer(order.totalRefundedMinorUnits),
                SQLiteValue(order.walletProvider), SQLiteValue(order.reference),
                .integer(record.opensOrder ? 1 : 0),
                .integer(order.creationTime.milliseconds),
                .integer(record.time.milliseconds),
            ]
        )
    }
}
