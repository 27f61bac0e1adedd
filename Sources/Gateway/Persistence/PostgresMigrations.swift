import PostgresNIO

/// The PostgreSQL schema, as numbered steps (each a list of statements: the extended protocol
/// runs one statement per query). It mirrors SQLite's tables after SQLite's step 2;
/// `gateway_schema.version` records how far a database has come.
///
/// Replicas starting together must not run the same step twice: every start-up takes a
/// transaction-scoped advisory lock first, so one replica migrates while the others wait, then
/// find the schema current and do nothing. DDL is transactional in PostgreSQL, so a failed step
/// leaves no half-made table behind.
enum PostgresMigrations {
    /// The advisory lock key ("gateway" in ASCII); the per-order locks use the two-key form.
    static let lockKey: Int64 = 0x67_61_74_65_77_61_79

    static let steps: [[String]] = [
        // 1: orders (with a version for optimistic concurrency), transactions with the exact
        // response returned, Apple Pay replay records.
        [
            """
            CREATE TABLE orders (
                merchant_id text NOT NULL,
                order_id text NOT NULL,
                currency text NOT NULL,
                amount_minor bigint NOT NULL,
                status text NOT NULL,
                total_authorized_minor bigint NOT NULL,
                total_captured_minor bigint NOT NULL,
                total_refunded_minor bigint NOT NULL,
                wallet_provider text,
                reference text,
                initial_succeeded boolean NOT NULL DEFAULT false,
                created_at_ms bigint NOT NULL,
                updated_at_ms bigint NOT NULL,
                version bigint NOT NULL DEFAULT 1,
                PRIMARY KEY (merchant_id, order_id)
            )
            """,
            """
            CREATE TABLE transactions (
                sequence bigint GENERATED ALWAYS AS IDENTITY,
                merchant_id text NOT NULL,
                order_id text NOT NULL,
                transaction_id text NOT NULL,
                operation text NOT NULL,
                request_hash bytea NOT NULL,
                response_body bytea NOT NULL,
                result text NOT NULL,
                gateway_code text NOT NULL,
                amount_minor bigint NOT NULL,
                currency text NOT NULL,
                eci_indicator text,
                apple_pay_transaction_id text,
                created_at_ms bigint NOT NULL,
                type text NOT NULL,
                succeeded boolean NOT NULL,
                voided boolean NOT NULL DEFAULT false,
                target_transaction_id text,
                PRIMARY KEY (merchant_id, order_id, transaction_id)
            )
            """,
            """
            CREATE TABLE apple_pay_transactions (
                apple_pay_transaction_id text PRIMARY KEY,
                merchant_id text NOT NULL,
                order_id text NOT NULL,
                transaction_id text NOT NULL,
                accepted_at_ms bigint NOT NULL
            )
            """,
            "CREATE INDEX apple_pay_transactions_by_time ON apple_pay_transactions (accepted_at_ms)",
        ]
    ]

    struct NewerSchema: Error, CustomStringConvertible {
        let version: Int64
        var description: String {
            "the database has schema version \(version), newer than this gateway knows (\(steps.count))"
        }
    }

    /// Applies the missing steps, all in one transaction under the migration lock.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS gateway_schema (version bigint NOT NULL)",
                logger: logger
            )
            var current: Int64?
            for try await version in try await connection.query("SELECT version FROM gateway_schema", logger: logger)
                .decode(Int64.self)
            {
                current = version
            }
            if current == nil { try await connection.query("INSERT INTO gateway_schema VALUES (0)", logger: logger) }
            let from = current ?? 0
            guard from <= Int64(steps.count) else { throw NewerSchema(version: from) }
            for (index, step) in steps.enumerated() where Int64(index + 1) > from {
                for statement in step { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            }
            if from < Int64(steps.count) {
                try await connection.query("UPDATE gateway_schema SET version = \(Int64(steps.count))", logger: logger)
                logger.notice("PostgreSQL schema migrated", metadata: ["from": "\(from)", "to": "\(steps.count)"])
            }
        }
    }
}
