import Crypto
import GatewayCore
import PostgresNIO

/// `gateway_record`, PostgreSQL's one write path for a transaction record, defined once: its
/// parameters (name, type and the value the writer binds, in one list), its body, and the SQL
/// that declares it; and `gateway_record_batch`, which runs it for each record of a batch. The
/// migrations no longer declare them; `install(_:_:)` (after them, under the same lock) replaces
/// whatever is installed when its text differs from these definitions, so the writer's bindings
/// and the functions' parameters cannot disagree.
enum GatewayRecordFunction {
    enum SQLType: String {
        case text, bytea, bigint, boolean

        var dataType: PostgresDataType {
            switch self {
            case .text: .text
            case .bytea: .bytea
            case .bigint: .int8
            case .boolean: .bool
            }
        }

        /// A batch binds each parameter as an array of this.
        var arrayDataType: PostgresDataType {
            switch self {
            case .text: .textArray
            case .bytea: .byteaArray
            case .bigint: .int8Array
            case .boolean: .boolArray
            }
        }
    }

    /// One parameter: its name in the function, its type (from what it binds), and what the
    /// writer binds for a record (nil binds NULL).
    struct Parameter: Sendable {
        let name: String
        let type: SQLType
        let value: @Sendable (TransactionRecord) -> PostgresElement

        init(_ name: String, _ value: @escaping @Sendable (TransactionRecord) -> String?) {
            self.init(name, .text) { value($0).map(PostgresElement.text) ?? .null }
        }

        init(_ name: String, _ value: @escaping @Sendable (TransactionRecord) -> Int64?) {
            self.init(name, .bigint) { value($0).map(PostgresElement.integer) ?? .null }
        }

        init(_ name: String, _ value: @escaping @Sendable (TransactionRecord) -> Bool?) {
            self.init(name, .boolean) { value($0).map(PostgresElement.boolean) ?? .null }
        }

        init(_ name: String, _ value: @escaping @Sendable (TransactionRecord) -> [UInt8]?) {
            self.init(name, .bytea) { value($0).map(PostgresElement.bytes) ?? .null }
        }

        private init(_ name: String, _ type: SQLType, _ value: @escaping @Sendable (TransactionRecord) -> PostgresElement) {
            self.name = name
            self.type = type
            self.value = value
        }
    }

    /// The record's own values, then (``receiptParameters``) the receipt's typed columns.
    static let recordParameters: [Parameter] = [
        Parameter("p_merchant") { $0.merchantId },
        Parameter("p_order") { $0.orderId },
        Parameter("p_transaction") { $0.transactionId },
        Parameter("p_operation") { $0.operation.rawValue },
        Parameter("p_request_hash") { $0.requestHash },
        Parameter("p_response") { $0.response.bytes },
        Parameter("p_result") { $0.result.rawValue },
        Parameter("p_gateway_code") { $0.gatewayCode.rawValue },
        Parameter("p_amount") { $0.amountMinorUnits },
        Parameter("p_currency") { $0.currency },
        Parameter("p_eci") { $0.eciIndicator },
        Parameter("p_apple_pay_id") { $0.applePayReplay?.transactionId },
        Parameter("p_time_ms") { $0.time.milliseconds },
        Parameter("p_type") { $0.transactionType.rawValue },
        Parameter("p_succeeded") { $0.succeeded },
        Parameter("p_target") { $0.targetTransactionId },
        Parameter("p_voids_target") { $0.voidedTransactionId != nil },
        Parameter("p_is_initial") { $0.isInitial },
        Parameter("p_expected_version") { $0.expectedOrderVersion },
        Parameter("p_order_currency") { $0.order.currency },
        Parameter("p_order_amount") { $0.order.amountMinorUnits },
        Parameter("p_status") { $0.order.status.rawValue },
        Parameter("p_total_authorized") { $0.order.totalAuthorizedMinorUnits },
        Parameter("p_total_captured") { $0.order.totalCapturedMinorUnits },
        Parameter("p_total_refunded") { $0.order.totalRefundedMinorUnits },
        Parameter("p_wallet") { $0.order.walletProvider },
        Parameter("p_reference") { $0.order.reference },
        Parameter("p_created_ms") { $0.order.creationTime.milliseconds },
        Parameter("p_initial_succeeded") { $0.opensOrder },
        Parameter("p_data_digest") { $0.applePayReplay?.dataDigestHex },
        Parameter("p_response_format") { $0.response.format.rawValue },
        Parameter("p_replay_from_ms") { record in record.applePayReplay.map { $0.retainedFrom(record.time).milliseconds } },
        // The notification to deliver once the record is committed: its URL (NULL for none) and
        // whether the order chose it; the outbox row is written with the record, in its transaction.
        Parameter("p_notification_url") { $0.notification?.url },
        Parameter("p_notification_order_url") { $0.notification?.isOrderURL },
    ]

    /// The receipt's columns, `r_<column>`, bound from ``ReceiptColumns/values(_:)`` in its order.
    static let receiptParameters: [(name: String, type: SQLType)] = ReceiptColumns.columns.map {
        ("r_\($0.name)", $0.kind == .text ? .text : .bigint)
    }

    /// Every parameter's name and type, in order: what the prepared call declares.
    static let parameterNames: [String] = recordParameters.map(\.name) + receiptParameters.map(\.name)
    static let parameterTypes: [SQLType] = recordParameters.map(\.type) + receiptParameters.map(\.type)

    /// `CREATE FUNCTION gateway_record(...)`. Its statements keep one generic plan per connection:
    /// planned on every call (step 15's `force_custom_plan`), planning was a quarter of the
    /// database's time per AUTHORIZE. The order is read as the first row at or after its key in
    /// the key's order: asked plainly for its key, a generic plan made on small tables picks a
    /// console index that leads with merchant_id and reads every order of the merchant (step 15
    /// says how that went), while only the primary key gives this order without sorting. The
    /// other lookups have only their primary key to use.
    static let definition: String = {
        let parameters = zip(parameterNames, parameterTypes).map { "\($0) \($1.rawValue)" }.joined(separator: ", ")
        let receiptNames = ReceiptColumns.names.joined(separator: ", ")
        let receiptValues = receiptParameters.map(\.name).joined(separator: ", ")
        return """
            CREATE FUNCTION gateway_record(\(parameters)) RETURNS TABLE (outcome text)
            LANGUAGE plpgsql ROWS 1 SET plan_cache_mode = force_generic_plan AS $$
            DECLARE
                current_version bigint;
                current_initial boolean;
                found_merchant text;
                found_order text;
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtext(p_merchant), hashtext(p_order));
                PERFORM 1 FROM transactions t
                    WHERE t.merchant_id = p_merchant AND t.order_id = p_order AND t.transaction_id = p_transaction;
                IF FOUND THEN
                    RETURN QUERY SELECT 'duplicate'::text;
                    RETURN;
                END IF;
                SELECT o.merchant_id, o.order_id, o.version, o.initial_succeeded
                    INTO found_merchant, found_order, current_version, current_initial FROM orders o
                    WHERE (o.merchant_id, o.order_id) >= (p_merchant, p_order)
                    ORDER BY o.merchant_id, o.order_id LIMIT 1;
                IF found_merchant IS DISTINCT FROM p_merchant OR found_order IS DISTINCT FROM p_order THEN
                    current_version := NULL;
                    current_initial := NULL;
                END IF;
                IF p_is_initial AND coalesce(current_initial, false) THEN
                    RETURN QUERY SELECT 'orderAlreadySucceeded'::text;
                    RETURN;
                END IF;
                IF current_version IS DISTINCT FROM p_expected_version THEN
                    RETURN QUERY SELECT 'orderChanged'::text;
                    RETURN;
                END IF;
                IF p_apple_pay_id IS NOT NULL THEN
                    -- No conflict target: a used transaction id and a used data digest both refuse.
                    INSERT INTO apple_pay_transactions
                        (apple_pay_transaction_id, data_digest, merchant_id, order_id, transaction_id, accepted_at_ms)
                    VALUES (p_apple_pay_id, p_data_digest, p_merchant, p_order, p_transaction, p_replay_from_ms)
                    ON CONFLICT DO NOTHING;
                    IF NOT FOUND THEN
                        RETURN QUERY SELECT 'applePayReplay'::text;
                        RETURN;
                    END IF;
                END IF;
                INSERT INTO orders AS o (merchant_id, order_id, currency, amount_minor, status,
                    total_authorized_minor, total_captured_minor, total_refunded_minor, wallet_provider, reference,
                    initial_succeeded, created_at_ms, updated_at_ms)
                VALUES (p_merchant, p_order, p_order_currency, p_order_amount, p_status, p_total_authorized,
                    p_total_captured, p_total_refunded, p_wallet, p_reference, p_initial_succeeded, p_created_ms,
                    p_time_ms)
                ON CONFLICT (merchant_id, order_id) DO UPDATE SET
                    currency = excluded.currency, amount_minor = excluded.amount_minor, status = excluded.status,
                    total_authorized_minor = excluded.total_authorized_minor,
                    total_captured_minor = excluded.total_captured_minor,
                    total_refunded_minor = excluded.total_refunded_minor,
                    wallet_provider = excluded.wallet_provider, reference = excluded.reference,
                    initial_succeeded = o.initial_succeeded OR excluded.initial_succeeded,
                    updated_at_ms = excluded.updated_at_ms, version = o.version + 1;
                INSERT INTO transactions (merchant_id, order_id, transaction_id, operation, request_hash,
                    response_body, result, gateway_code, amount_minor, currency, eci_indicator,
                    apple_pay_transaction_id, created_at_ms, type, succeeded, target_transaction_id, response_format,
                    \(receiptNames))
                VALUES (p_merchant, p_order, p_transaction, p_operation, p_request_hash, p_response, p_result,
                    p_gateway_code, p_amount, p_currency, p_eci, p_apple_pay_id, p_time_ms, p_type, p_succeeded,
                    p_target, p_response_format,
                    \(receiptValues));
                IF p_voids_target AND p_target IS NOT NULL THEN
                    UPDATE transactions t SET voided = true
                    WHERE t.merchant_id = p_merchant AND t.order_id = p_order AND t.transaction_id = p_target;
                END IF;
                IF p_notification_url IS NOT NULL THEN
                    INSERT INTO notification_outbox (merchant_id, order_id, transaction_id, url, order_url, status,
                        created_at_ms, next_attempt_at_ms)
                    VALUES (p_merchant, p_order, p_transaction, p_notification_url, p_notification_order_url, 'PENDING',
                        p_time_ms, p_time_ms);
                END IF;
                RETURN QUERY SELECT 'recorded'::text;
            END
            $$
            """
    }()

    /// `CREATE FUNCTION gateway_record_batch(...)`: each of `gateway_record`'s parameters as an
    /// array with one element per record; `gateway_record` runs once per record, in the arrays'
    /// order, and the rows say which record (from 1) had which outcome. The batch's query is
    /// planned once per connection: as the writer's own statement, its row estimate came from the
    /// arrays' lengths, so PostgreSQL planned it on every call (and compiled big batches' plans
    /// to machine code) rather than keep a generic plan.
    static let batchDefinition: String = {
        let names = parameterNames
        let arrays = zip(names, parameterTypes).map { "\($0) \($1.rawValue)[]" }.joined(separator: ", ")
        return """
            CREATE FUNCTION gateway_record_batch(\(arrays)) RETURNS TABLE (record_number bigint, outcome text)
            LANGUAGE plpgsql ROWS 8 SET plan_cache_mode = force_generic_plan AS $$
            BEGIN
                RETURN QUERY SELECT b.record_number, r.outcome
                    FROM unnest(\(names.joined(separator: ", "))) WITH ORDINALITY
                        AS b(\(names.map { "b_" + $0 }.joined(separator: ", ")), record_number)
                    CROSS JOIN LATERAL gateway_record(\(names.map { "b.b_" + $0 }.joined(separator: ", "))) r
                    ORDER BY b.record_number;
            END
            $$
            """
    }()

    /// What each installed function carries as its comment: both definitions' digest.
    static let digest = SHA256.hash(data: Array((definition + batchDefinition).utf8)).map { String(format: "%02x", $0) }.joined()

    /// Installs these definitions unless the installed functions are them already (their comments
    /// are the definitions' digest): every other `gateway_record` and `gateway_record_batch` is
    /// dropped first, whatever its parameters. Runs inside the migration's transaction and lock.
    static func install(_ connection: PostgresConnection, _ logger: Logger) async throws {
        let installed = try await connection.query(
            """
            SELECT count(*) FILTER (WHERE obj_description(oid, 'pg_proc') = \(digest)), count(*) FROM pg_proc
            WHERE proname IN ('gateway_record', 'gateway_record_batch')
            """,
            logger: logger
        )
        var current = false
        for try await (matching, all) in installed.decode((Int64, Int64).self) { current = matching == 2 && all == 2 }
        if current { return }
        try await connection.query(
            """
            DO $$
            DECLARE f regprocedure;
            BEGIN
                FOR f IN SELECT oid::regprocedure FROM pg_proc WHERE proname IN ('gateway_record', 'gateway_record_batch') LOOP
                    EXECUTE format('DROP FUNCTION %s', f);
                END LOOP;
            END
            $$
            """,
            logger: logger
        )
        try await connection.query(PostgresQuery(unsafeSQL: definition), logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: batchDefinition), logger: logger)
        let signature = parameterTypes.map(\.rawValue).joined(separator: ", ")
        let arraySignature = parameterTypes.map { $0.rawValue + "[]" }.joined(separator: ", ")
        for (function, arguments) in [("gateway_record", signature), ("gateway_record_batch", arraySignature)] {
            try await connection.query(
                PostgresQuery(unsafeSQL: "COMMENT ON FUNCTION \(function)(\(arguments)) IS '\(digest)'"),
                logger: logger
            )
        }
    }
}
