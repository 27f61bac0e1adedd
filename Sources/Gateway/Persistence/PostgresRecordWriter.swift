import PostgresNIO

/// The writes one transaction record makes in PostgreSQL: the replay record, the order, the
/// transaction. Runs inside the caller's database transaction; conflicts are outcomes, not errors.
///
/// Concurrency between replicas: the first statement takes a transaction-scoped advisory lock on
/// the order's (merchant, order) key, so every write on one order waits for the one before it
/// to commit, in whichever replica it runs. We chose that over SERIALIZABLE with retries because
/// the lock also covers an order that does not exist yet (two initial transactions racing; a
/// `SELECT ... FOR UPDATE` has no row to lock then), and it never fails a write for a
/// conflict on an unrelated row. Under the lock the version check is exact: a transaction
/// decided on an order version that another replica has since moved is refused
/// (`.orderChanged`) and the processor decides again on the new state. Replay records race
/// across orders; `ON CONFLICT DO NOTHING` on their primary key waits for a concurrent insert
/// of the same id and then tells the loser.
enum PostgresRecordWriter {
    static func write(
        _ record: TransactionRecord,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws
        -> RecordOutcome
    {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtext(\(record.merchantId)), hashtext(\(record.orderId)))",
            logger: logger
        )
        if let existing = try await PostgresTransactionStore.storedTransaction(
            connection,
            logger,
            record.merchantId,
            record.orderId,
            record.transactionId
        ) {
            return .duplicateTransaction(existing)
        }
        var version: Int64?
        var initialSucceeded = false
        let order = try await connection.query(
            "SELECT version, initial_succeeded FROM orders WHERE merchant_id = \(record.merchantId) AND order_id = \(record.orderId)",
            logger: logger
        )
        for try await (storedVersion, succeeded) in order.decode((Int64, Bool).self) {
            version = storedVersion
            initialSucceeded = succeeded
        }
        if record.isInitial && initialSucceeded { return .orderAlreadySucceeded }
        guard version == record.expectedOrderVersion else { return .orderChanged }
        if let applePayTransactionId = record.applePayTransactionId {
            let inserted = try await connection.query(
                """
                INSERT INTO apple_pay_transactions
                    (apple_pay_transaction_id, merchant_id, order_id, transaction_id, accepted_at_ms)
                VALUES (\(applePayTransactionId), \(record.merchantId), \(record.orderId), \(record.transactionId),
                    \(record.time.milliseconds))
                ON CONFLICT (apple_pay_transaction_id) DO NOTHING
                RETURNING 1
                """,
                logger: logger
            )
            var rows = 0
            for try await _ in inserted { rows += 1 }
            if rows == 0 { return .applePayReplay }
        }
        try await upsertOrder(connection, logger, record)
        try await connection.query(
            """
            INSERT INTO transactions (merchant_id, order_id, transaction_id, operation, request_hash,
                response_body, result, gateway_code, amount_minor, currency, eci_indicator,
                apple_pay_transaction_id, created_at_ms, type, succeeded, target_transaction_id)
            VALUES (\(record.merchantId), \(record.orderId), \(record.transactionId), \(record.operation),
                \(ByteBuffer(bytes: record.requestHash)), \(ByteBuffer(bytes: record.responseBody)), \(record.result),
                \(record.gatewayCode), \(record.amountMinorUnits), \(record.currency), \(record.eciIndicator),
                \(record.applePayTransactionId), \(record.time.milliseconds), \(record.transactionType),
                \(record.succeeded), \(record.targetTransactionId))
            """,
            logger: logger
        )
        if record.voidsTarget, let target = record.targetTransactionId {
            try await connection.query(
                """
                UPDATE transactions SET voided = true
                WHERE merchant_id = \(record.merchantId) AND order_id = \(record.orderId) AND transaction_id = \(target)
                """,
                logger: logger
            )
        }
        return .recorded
    }

    private static func upsertOrder(
        _ connection: PostgresConnection,
        _ logger: Logger,
        _ record: TransactionRecord
    )
        async throws
    {
        let order = record.order
        let initialSucceeded = record.isInitial && record.succeeded && record.transactionType != "VERIFICATION"
        try await connection.query(
            """
            INSERT INTO orders (merchant_id, order_id, currency, amount_minor, status, total_authorized_minor,
                total_captured_minor, total_refunded_minor, wallet_provider, reference, initial_succeeded,
                created_at_ms, updated_at_ms)
            VALUES (\(record.merchantId), \(record.orderId), \(order.currency), \(order.amountMinorUnits),
                \(order.status), \(order.totalAuthorizedMinorUnits), \(order.totalCapturedMinorUnits),
                \(order.totalRefundedMinorUnits), \(order.walletProvider), \(order.reference), \(initialSucceeded),
                \(order.creationTime.milliseconds), \(record.time.milliseconds))
            ON CONFLICT (merchant_id, order_id) DO UPDATE SET
                currency = excluded.currency, amount_minor = excluded.amount_minor, status = excluded.status,
                total_authorized_minor = excluded.total_authorized_minor,
                total_captured_minor = excluded.total_captured_minor,
                total_refunded_minor = excluded.total_refunded_minor,
                wallet_provider = excluded.wallet_provider, reference = excluded.reference,
                initial_succeeded = orders.initial_succeeded OR excluded.initial_succeeded,
                updated_at_ms = excluded.updated_at_ms, version = orders.version + 1
            """,
            logger: logger
        )
    }
}
