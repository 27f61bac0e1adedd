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
    /// Runs `gateway_record` (migration step 5): the lock, the checks and the writes in one
    /// statement, so one round trip, committed before it returns when the outcome is `.recorded`.
    static func write(_ record: TransactionRecord, _ client: PostgresClient, _ logger: Logger) async throws -> RecordOutcome {
        let rows = try await client.execute(RecordStatement(record: record), logger: logger)
        var outcome: RecordOutcome?
        for try await (name, hash, body) in rows {
            switch try OutcomeName(decoding: name) {
            case .recorded: outcome = .recorded
            case .duplicate:
                outcome = .duplicateTransaction(
                    StoredTransaction(
                        requestHash: hash.map { Array($0.readableBytesView) } ?? [],
                        responseBody: body.map { Array($0.readableBytesView) } ?? []
                    )
                )
            case .orderAlreadySucceeded: outcome = .orderAlreadySucceeded
            case .orderChanged: outcome = .orderChanged
            case .applePayReplay: outcome = .applePayReplay
            }
        }
        guard let outcome else { throw UnreadableStoredValue(column: "gateway_record.outcome", value: "no row") }
        return outcome
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
        static let name = "gateway_record_digest"
        static let sql = """
            SELECT outcome, stored_hash, stored_body FROM gateway_record(
                $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
                $23, $24, $25, $26, $27, $28, $29, $30)
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .text, .text, .text, .text, .bytea, .bytea, .text, .text, .int8, .text, .text, .text, .int8, .text, .bool,
            .text, .bool, .bool, .int8, .text, .int8, .text, .int8, .int8, .int8, .text, .text, .int8, .bool,
            .text,
        ]
        typealias Row = (String, ByteBuffer?, ByteBuffer?)

        let record: TransactionRecord

        func makeBindings() -> PostgresBindings {
            let order = record.order
            // In the function's parameter order; nil binds NULL.
            let values: [(any PostgresDynamicTypeEncodable)?] = [
                record.merchantId, record.orderId, record.transactionId, record.operation.rawValue,
                ByteBuffer(bytes: record.requestHash), ByteBuffer(bytes: record.responseBody), record.result.rawValue,
                record.gatewayCode.rawValue, record.amountMinorUnits, record.currency, record.eciIndicator,
                record.applePayReplay?.transactionId, record.time.milliseconds, record.transactionType.rawValue, record.succeeded,
                record.targetTransactionId, record.voidedTransactionId != nil, record.isInitial, record.expectedOrderVersion,
                order.currency, order.amountMinorUnits, order.status.rawValue, order.totalAuthorizedMinorUnits,
                order.totalCapturedMinorUnits, order.totalRefundedMinorUnits, order.walletProvider, order.reference,
                order.creationTime.milliseconds, record.opensOrder, record.applePayReplay?.dataDigestHex,
            ]
            var bindings = PostgresBindings(capacity: values.count)
            for value in values {
                if let value { bindings.append(value) } else { bindings.appendNull() }
            }
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }
}
