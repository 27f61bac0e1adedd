import GatewayCore

/// The writes one transaction record makes: the transaction, the order, the replay record.
///
/// Each precondition is checked by the write it guards (a key that already exists, an order
/// version that moved), so a record that meets them, as nearly all do, reads nothing first.
/// Only a write that was refused reads, to say why.
enum SQLiteRecordWriter {
    /// The caller undoes a record whose outcome is neither `.recorded` nor a duplicate (which
    /// writes nothing), its replay claim in `ledger` with its writes; conflicts are outcomes, not
    /// errors.
    static func write(
        _ record: TransactionRecord,
        _ connection: SQLiteConnection,
        _ ledger: SQLiteReplayLedger
    ) throws -> RecordOutcome {
        // The transaction's own key is the retry check: a retry, or a request that raced it
        // with the same identifiers, finds the row there, and the record has written nothing
        // (so the group commit need not undo it).
        try insertTransaction(connection, record)
        guard connection.changes == 1 else {
            let existing = try SQLiteTransactionStore.storedTransaction(
                connection,
                record.merchantId,
                record.orderId,
                record.transactionId
            )
            // The row that refused the insert is there: the caller's transaction holds the lock.
            guard let existing else { throw SQLiteConnection.Failure(code: 0, message: "a refused transaction row is not there") }
            return .duplicateTransaction(existing)
        }
        if let refused = try writeOrder(connection, record) { return refused }
        if let replay = record.applePayReplay, try !recordReplay(replay, record, connection, ledger) { return .applePayReplay }
        if let target = record.voidedTransactionId {
            try connection.query(
                markVoidedSQL,
                [.text(record.merchantId), .text(record.orderId), .text(target)]
            )
        }
        if let notification = record.notification {
            try connection.query(
                insertNotificationSQL,
                [
                    .text(record.merchantId), .text(record.orderId), .text(record.transactionId), .text(notification.url),
                    .integer(notification.isOrderURL ? 1 : 0), .integer(record.time.milliseconds),
                    .integer(record.time.milliseconds),
                ]
            )
        }
        return .recorded
    }

    /// Records the token as used; false when either of its keys was recorded before. The ledger
    /// decides; the row, appended to a table without unique keys, is what it is read back from.
    private static func recordReplay(
        _ replay: ApplePayReplayKey,
        _ record: TransactionRecord,
        _ connection: SQLiteConnection,
        _ ledger: SQLiteReplayLedger
    ) throws -> Bool {
        let dataDigestHex = replay.dataDigestHex
        guard ledger.claim(transactionId: replay.transactionId, dataDigestHex: dataDigestHex) else { return false }
        try connection.query(
            insertReplaySQL,
            [
                .text(replay.transactionId), .text(dataDigestHex), .text(record.merchantId),
                .text(record.orderId), .text(record.transactionId), .integer(replay.retainedFrom(record.time).milliseconds),
            ]
        )
        return true
    }

    private static let insertNotificationSQL = FrequentSQL(
        """
        INSERT INTO notification_outbox
            (merchant_id, order_id, transaction_id, url, order_url, status, created_at_ms, next_attempt_at_ms)
        VALUES (?, ?, ?, ?, ?, 'PENDING', ?, ?)
        """
    )

    private static let markVoidedSQL = FrequentSQL(
        "UPDATE transactions SET voided = 1 WHERE merchant_id = ? AND order_id = ? AND transaction_id = ?"
    )

    private static let insertReplaySQL = FrequentSQL(
        """
        INSERT INTO apple_pay_transactions
            (apple_pay_transaction_id, data_digest, merchant_id, order_id, transaction_id, accepted_at_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    )

    private static let updateOrderSQL = FrequentSQL(
        """
        UPDATE orders SET currency = ?, amount_minor = ?, status = ?, total_authorized_minor = ?,
            total_captured_minor = ?, total_refunded_minor = ?, wallet_provider = ?, reference = ?,
            initial_succeeded = max(initial_succeeded, ?), updated_at_ms = ?, version = version + 1
        WHERE merchant_id = ? AND order_id = ? AND version = ? AND NOT (? AND initial_succeeded = 1)
        """
    )

    private static let insertOrderSQL = FrequentSQL(
        """
        INSERT INTO orders (currency, amount_minor, status, total_authorized_minor, total_captured_minor,
            total_refunded_minor, wallet_provider, reference, initial_succeeded, updated_at_ms,
            merchant_id, order_id, created_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (merchant_id, order_id) DO NOTHING
        """
    )

    private static let insertTransactionSQL: FrequentSQL = {
        let columns =
            [
                "merchant_id", "order_id", "transaction_id", "operation", "request_hash", "response_format", "response_body",
                "result", "gateway_code", "amount_minor", "currency", "eci_indicator", "apple_pay_transaction_id",
                "created_at_ms", "type", "succeeded", "target_transaction_id",
            ] + ReceiptColumns.names
        return FrequentSQL(
            """
            INSERT INTO transactions (\(columns.joined(separator: ", ")))
            VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
            ON CONFLICT (merchant_id, order_id, transaction_id) DO NOTHING
            """
        )
    }()

    private static func insertTransaction(_ connection: SQLiteConnection, _ record: TransactionRecord) throws {
        var values: [SQLiteValue] = [
            .text(record.merchantId), .text(record.orderId), .text(record.transactionId),
            .text(record.operation.rawValue), .blob(record.requestHash), .text(record.response.format.rawValue),
            .blob(record.response.bytes), .text(record.result.rawValue), .text(record.gatewayCode.rawValue),
            .integer(record.amountMinorUnits), .text(record.currency), SQLiteValue(record.eciIndicator),
            SQLiteValue(record.applePayReplay?.transactionId), .integer(record.time.milliseconds),
            .text(record.transactionType.rawValue), .integer(record.succeeded ? 1 : 0),
            SQLiteValue(record.targetTransactionId),
        ]
        values.append(contentsOf: ReceiptColumns.values(record.receipt).lazy.map(SQLiteValue.init))
        try connection.query(insertTransactionSQL, values)
    }

    /// The order as the record leaves it, written only if it is still as the core saw it: absent
    /// for a record decided on no order, at the version it was decided on otherwise, and for an
    /// initial transaction, without a successful initial one. Nil when written; else why not.
    private static func writeOrder(_ connection: SQLiteConnection, _ record: TransactionRecord) throws -> RecordOutcome? {
        let order = record.order
        let state: [SQLiteValue] = [
            .text(order.currency), .integer(order.amountMinorUnits), .text(order.status.rawValue),
            .integer(order.totalAuthorizedMinorUnits), .integer(order.totalCapturedMinorUnits),
            .integer(order.totalRefundedMinorUnits), SQLiteValue(order.walletProvider), SQLiteValue(order.reference),
            .integer(record.opensOrder ? 1 : 0), .integer(record.time.milliseconds),
        ]
        if let expectedVersion = record.expectedOrderVersion {
            try connection.query(
                updateOrderSQL,
                state + [
                    .text(record.merchantId), .text(record.orderId), .integer(expectedVersion),
                    .integer(record.isInitial ? 1 : 0),
                ]
            )
        } else {
            try connection.query(
                insertOrderSQL,
                state + [.text(record.merchantId), .text(record.orderId), .integer(order.creationTime.milliseconds)]
            )
        }
        if connection.changes == 1 { return nil }
        let current = try connection.rows(
            "SELECT initial_succeeded FROM orders WHERE merchant_id = ? AND order_id = ?",
            [.text(record.merchantId), .text(record.orderId)]
        ).first
        return record.isInitial && current?["initial_succeeded"].integer == 1 ? .orderAlreadySucceeded : .orderChanged
    }
}
