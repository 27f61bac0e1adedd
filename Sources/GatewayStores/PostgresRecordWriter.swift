import GatewayCore
import PostgresNIO

/// The writes one transaction record makes in PostgreSQL: the replay record, the order, the
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
    /// Runs `gateway_record` (``GatewayRecordFunction``): the lock, the checks and the writes in one
    /// statement, so one round trip, committed before it returns when the outcome is `.recorded`.
    /// `prepared: false` sends the call unnamed, parsed on every use (behind a transaction-pooling
    /// PgBouncer, where a statement prepared on one server connection is unknown on the next).
    static func write(
        _ record: TransactionRecord,
        _ connection: PostgresConnection,
        _ logger: Logger,
        prepared: Bool = true
    ) async throws -> RecordOutcome {
        let statement = RecordStatement(record: record)
        var answer: RecordStatement.Row?
        if prepared {
            for try await row in try await connection.execute(statement, logger: logger) { answer = row }
        } else {
            let query = PostgresQuery(unsafeSQL: RecordStatement.sql, binds: statement.makeBindings())
            for try await row in try await connection.query(query, logger: logger) { answer = try statement.decodeRow(row) }
        }
        guard let (name, joined) = answer else { throw UnreadableStoredValue(column: "gateway_record.outcome", value: "no row") }
        switch name {
        case .recorded: return .recorded
        case .duplicate:
            if let joined { return .duplicateTransaction(joined) }
            // The statement's snapshot predates a duplicate committed while the function waited
            // for the order's lock (two identical requests racing): read it now.
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
    /// The parameters are typed as the function declares them, so a first call with NULLs
    /// prepares the same statement as any other.
    struct RecordStatement: PostgresPreparedStatement {
        static let name = "gateway_record_outbox"
        /// A duplicate's stored transaction comes back in the same round trip: joined on the
        /// identifiers (parameters 1 to 3) when the function says it is there. One line, so
        /// PostgreSQL's statement log shows the call. Nothing in it depends on a value, so after
        /// its first uses PostgreSQL keeps one generic plan for it instead of planning each call
        /// (a condition on the notification URL here, before the outbox row moved into the
        /// function, made a plan per call the cheaper choice: a sixth of the database's time).
        static let sql =
            "SELECT r.outcome, \(storedColumns.map { "t." + $0 }.joined(separator: ", ")) "
            + "FROM gateway_record(\((1...functionParameterCount).map { "$\($0)" }.joined(separator: ", "))) r "
            + "LEFT JOIN transactions t ON r.outcome = 'duplicate' "
            + "AND t.merchant_id = $1 AND t.order_id = $2 AND t.transaction_id = $3"
        static let functionParameterCount = GatewayRecordFunction.parameterTypes.count
        static let storedColumns =
            ReceiptColumns.identityColumns + ReceiptColumns.names + [
                "request_hash", "response_format", "response_body",
            ]
        /// The function's parameters, as it declares them.
        static let bindingDataTypes: [PostgresDataType] = GatewayRecordFunction.parameterTypes.map(\.dataType)
        typealias Row = (OutcomeName, StoredTransaction?)

        let record: TransactionRecord

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: Self.bindingDataTypes.count)
            // In the function's parameter order; nil binds NULL.
            for parameter in GatewayRecordFunction.recordParameters {
                if let value = parameter.value(record) { bindings.append(value) } else { bindings.appendNull() }
            }
            for value in ReceiptColumns.values(record.receipt) {
                switch value {
                case .text(let text): bindings.append(text)
                case .integer(let integer): bindings.append(integer)
                case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
                case .null: bindings.appendNull()
                }
            }
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let columns = PostgresStoredRow(row)
            let name = try OutcomeName(decoding: try columns.text("outcome"))
            guard try columns.optionalBytes("request_hash") != nil else { return (name, nil) }
            return (name, try StoredTransaction(row: columns))
        }
    }
}
