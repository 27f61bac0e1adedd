import Dispatch
import Foundation
import Synchronization

/// The embedded store: one SQLite file in WAL mode.
///
/// Durability: `synchronous=FULL` makes every commit wait for the write-ahead log to reach the
/// disk, so a 201 the client has seen survives a crash of the process or of the machine. WAL
/// keeps readers from blocking the writer. All access goes through one connection on a serial
/// queue, which also keeps SQLite's blocking calls off Swift's cooperative threads.
final class SQLiteTransactionStore: TransactionStore {
    // Used only on `queue`, never concurrently.
    nonisolated(unsafe) private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "gateway.sqlite")

    init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA busy_timeout = 5000")
        try SQLiteMigrations.migrate(connection)
    }

    func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction? {
        try await run { connection in
            try Self.storedTransaction(connection, merchantId, orderId, transactionId)
        }
    }

    func order(merchantId: String, orderId: String) async throws -> StoredOrder? {
        try await run { connection in
            let rows = try connection.query(
                """
                SELECT currency, amount_minor, status, created_at_ms, initial_succeeded
                FROM orders WHERE merchant_id = ? AND order_id = ?
                """,
                [.text(merchantId), .text(orderId)]
            )
            return rows.first.map { row in
                StoredOrder(
                    currency: row[0].text ?? "",
                    amountMinorUnits: row[1].integer ?? 0,
                    status: row[2].text ?? "",
                    creationTime: Date(milliseconds: row[3].integer ?? 0),
                    hasSuccessfulInitialTransaction: row[4].integer == 1
                )
            }
        }
    }

    func isApplePayTransactionUsed(_ applePayTransactionId: String) async throws -> Bool {
        try await run { connection in
            try !connection.query(
                "SELECT 1 FROM apple_pay_transactions WHERE apple_pay_transaction_id = ?",
                [.text(applePayTransactionId)]
            ).isEmpty
        }
    }

    func record(_ record: TransactionRecord) async throws -> RecordOutcome {
        try await run { connection in
            try connection.transaction { () throws -> RecordOutcome in
                if let existing = try Self.storedTransaction(
                    connection,
                    record.merchantId,
                    record.orderId,
                    record.transactionId
                ) {
                    return .duplicateTransaction(existing)
                }
                if record.isInitial {
                    let succeeded = try connection.query(
                        "SELECT initial_succeeded FROM orders WHERE merchant_id = ? AND order_id = ?",
                        [.text(record.merchantId), .text(record.orderId)]
                    )
                    if succeeded.first?.first?.integer == 1 { return .orderAlreadySucceeded }
                }
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
                try Self.upsertOrder(connection, record)
                try connection.query(
                    """
                    INSERT INTO transactions (merchant_id, order_id, transaction_id, operation, request_hash,
                        response_body, result, gateway_code, amount_minor, currency, eci_indicator,
                        apple_pay_transaction_id, created_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(record.merchantId), .text(record.orderId), .text(record.transactionId),
                        .text(record.operation), .blob(record.requestHash), .blob(record.responseBody),
                        .text(record.result), .text(record.gatewayCode), .integer(record.amountMinorUnits),
                        .text(record.currency), SQLiteValue(record.eciIndicator),
                        SQLiteValue(record.applePayTransactionId), .integer(record.time.milliseconds),
                    ]
                )
                return .recorded
            }
        }
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
                updated_at_ms = excluded.updated_at_ms
            """,
            [
                .text(record.merchantId), .text(record.orderId), .text(order.currency),
                .integer(order.amountMinorUnits), .text(order.status), .integer(order.totalAuthorizedMinorUnits),
                .integer(order.totalCapturedMinorUnits), .integer(order.totalRefundedMinorUnits),
                SQLiteValue(order.walletProvider), SQLiteValue(order.reference),
                .integer(record.isInitial && record.succeeded ? 1 : 0), .integer(order.creationTime.milliseconds),
                .integer(record.time.milliseconds),
            ]
        )
    }

    private static func storedTransaction(
        _ connection: SQLiteConnection,
        _ merchantId: String,
        _ orderId: String,
        _ transactionId: String
    ) throws -> StoredTransaction? {
        let rows = try connection.query(
            """
            SELECT request_hash, response_body FROM transactions
            WHERE merchant_id = ? AND order_id = ? AND transaction_id = ?
            """,
            [.text(merchantId), .text(orderId), .text(transactionId)]
        )
        return rows.first.map { StoredTransaction(requestHash: $0[0].blob ?? [], responseBody: $0[1].blob ?? []) }
    }

    /// Runs database work on the store's queue and resumes the caller with its result.
    private func run<Value: Sendable>(
        _ work: @escaping @Sendable (SQLiteConnection) throws -> Value
    ) async throws
        -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work(self.connection) })
            }
        }
    }
}

extension Date {
    init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
