import GatewayCore
import PostgresNIO

/// The writes transaction records make in PostgreSQL: the replay record, the order, the
/// transaction, all in the server-side function `gateway_record`; conflicts are outcomes, not errors.
///
/// Concurrency between replicas: the function first takes a transaction-scoped advisory lock on
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
    /// Runs `gateway_record` (``GatewayRecordFunction``) for each record, in one statement: one
    /// round trip and one commit for them all, each record's outcome in the records' order. The
    /// records go in the order of their (merchant, order) keys, so two batches take their orders'
    /// locks in the same order and never wait on each other in a cycle. A batch the server rejects
    /// (a value one record carries, a deadlock on a replayed token) rolls back whole and is written
    /// again one record at a time, so each record gets its own outcome or error.
    ///
    /// `prepared: false` sends the statement unnamed, parsed on every use (behind a
    /// transaction-pooling PgBouncer, where a statement prepared on one server connection is
    /// unknown on the next).
    static func write(
        _ records: [TransactionRecord],
        _ connection: PostgresConnection,
        _ logger: Logger,
        prepared: Bool = true
    ) async throws -> [Result<RecordOutcome, any Error>] {
        let lockOrder = records.indices.sorted {
            (records[$0].merchantId, records[$0].orderId) < (records[$1].merchantId, records[$1].orderId)
        }
        do {
            let outcomes = try await writeTogether(lockOrder.map { records[$0] }, connection, logger, prepared)
            var results = [Result<RecordOutcome, any Error>](repeating: .success(.recorded), count: records.count)
            for (position, index) in lockOrder.enumerated() { results[index] = .success(outcomes[position]) }
            return results
        } catch let error where records.count > 1 && rolledBackByTheServer(error) {
            var results: [Result<RecordOutcome, any Error>] = []
            for record in records {
                do {
                    results.append(.success(try await writeTogether([record], connection, logger, prepared)[0]))
                } catch {
                    results.append(.failure(StoreUnavailable.classify(error)))
                }
            }
            return results
        }
    }

    /// The server refused the statement itself and rolled it back, on a connection that still
    /// answers: anything but a server that cannot serve now.
    private static func rolledBackByTheServer(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return false }
        return !PostgresRefusal.serverCannotServe(error.serverInfo?[.sqlState] ?? "")
    }

    private static func writeTogether(
        _ records: [TransactionRecord],
        _ connection: PostgresConnection,
        _ logger: Logger,
        _ prepared: Bool
    ) async throws -> [RecordOutcome] {
        let statement = RecordBatchStatement(records: records)
        var rows: [RecordBatchStatement.Row] = []
        if prepared {
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        } else {
            let query = PostgresQuery(unsafeSQL: RecordBatchStatement.sql, binds: statement.makeBindings())
            for try await row in try await connection.query(query, logger: logger) { rows.append(try statement.decodeRow(row)) }
        }
        var outcomes = [RecordOutcome?](repeating: nil, count: records.count)
        for (number, name, joined) in rows {
            guard (1...records.count).contains(number), outcomes[number - 1] == nil else {
                throw UnreadableStoredValue(column: "gateway_record batch position", value: "\(number)")
            }
            outcomes[number - 1] = try await outcome(name, joined, records[number - 1], connection, logger)
        }
        return try outcomes.map { outcome in
            guard let outcome else { throw UnreadableStoredValue(column: "gateway_record.outcome", value: "no row") }
            return outcome
        }
    }

    private static func outcome(
        _ name: OutcomeName,
        _ joined: StoredTransaction?,
        _ record: TransactionRecord,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> RecordOutcome {
        switch name {
        case .recorded: return .recorded
        case .duplicate:
            if let joined { return .duplicateTransaction(joined) }
            // The statement's snapshot predates a duplicate committed while the function waited
            // for the order's lock (two identical requests racing), or written earlier in the same
            // batch: read it now.
            let stored = try await PostgresTransactionStore.storedTransaction(
                connection,
                logger,
                record.merchantId,
                record.orderId,
                record.transactionId
            )
            guard let stored else { throw UnreadableStoredValue(column: "transactions", value: "a duplicate that is not there") }
            return .duplicateTransaction(stored)
        case .orderAlreadySucceeded: return .orderAlreadySucceeded
        case .orderChanged: return .orderChanged
        case .applePayReplay: return .applePayReplay
        }
    }

    /// The outcomes `gateway_record` returns, as it spells them. A name this build does not know
    /// (a function from a newer release) is an error, never a silent "nothing happened".
    enum OutcomeName: String {
        case recorded, duplicate, orderAlreadySucceeded, orderChanged, applePayReplay

        init(decoding text: String) throws {
            guard let name = Self(rawValue: text) else {
                throw UnreadableStoredValue(column: "gateway_record.outcome", value: text)
            }
            self = name
        }
    }

    /// The call, prepared once per pooled connection (that first use takes one more round trip):
    /// parsing and planning the call each time was an eighth of the server's work per AUTHORIZE.
    /// Each parameter is bound as an array with one element per record, typed as the function
    /// declares it, so any batch, and one with NULLs, runs the same prepared statement.
    struct RecordBatchStatement: PostgresPreparedStatement {
        static let name = "gateway_record_batch"
        /// A duplicate's stored transaction comes back in the same round trip, looked up on the
        /// record's identifiers when the function says it is there. The lookup's `LIMIT 1` keeps it
        /// a lookup per row: without it the planner joined the whole transactions table by hash.
        /// One line, so PostgreSQL's statement log shows the call. Nothing in it depends on a
        /// value, so after its first uses PostgreSQL keeps one generic plan for it instead of
        /// planning each call (a condition on the notification URL here, before the outbox row
        /// moved into the function, made a plan per call the cheaper choice: a sixth of the
        /// database's time).
        static let sql: String = {
            let parameters = GatewayRecordFunction.parameterTypes.indices.map { "$\($0 + 1)" }
            let key = ["merchant_id", "order_id", "transaction_id"].enumerated().map {
                "x.\($0.element) = ($\($0.offset + 1)::text[])[r.record_number]"
            }
            return "SELECT r.record_number, r.outcome, \(storedColumns.map { "t." + $0 }.joined(separator: ", ")) "
                + "FROM gateway_record_batch(\(parameters.joined(separator: ", "))) r "
                + "LEFT JOIN LATERAL (SELECT \(storedColumns.map { "x." + $0 }.joined(separator: ", ")) FROM transactions x "
                + "WHERE r.outcome = 'duplicate' AND \(key.joined(separator: " AND ")) LIMIT 1) t ON true"
        }()
        static let storedColumns =
            ReceiptColumns.identityColumns + ReceiptColumns.names + [
                "request_hash", "response_format", "response_body",
            ]
        /// The function's parameters, each as an array.
        static let bindingDataTypes: [PostgresDataType] = GatewayRecordFunction.parameterTypes.map(\.arrayDataType)
        /// The record's position in the batch (from 1), its outcome, and for a duplicate the
        /// transaction stored under its identifiers.
        typealias Row = (Int, OutcomeName, StoredTransaction?)

        let records: [TransactionRecord]

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: Self.bindingDataTypes.count)
            // In the function's parameter order.
            for parameter in GatewayRecordFunction.recordParameters {
                bindings.append(PostgresArrayColumn(of: parameter.type, records.map(parameter.value)))
            }
            let receipts = records.map { ReceiptColumns.values($0.receipt) }
            for (column, parameter) in GatewayRecordFunction.receiptParameters.enumerated() {
                bindings.append(PostgresArrayColumn(of: parameter.type, receipts.map { PostgresElement($0[column]) }))
            }
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let columns = PostgresStoredRow(row)
            let number = Int(try columns.integer("record_number"))
            let name = try OutcomeName(decoding: try columns.text("outcome"))
            guard try columns.optionalBytes("request_hash") != nil else { return (number, name, nil) }
            return (number, name, try StoredTransaction(row: columns))
        }
    }
}
