import GatewayCore
import PostgresNIO

/// The PostgreSQL schema, as numbered steps (each a list of statements: the extended protocol
/// runs one statement per query). It mirrors SQLite's tables after SQLite's step 2;
/// `gateway_schema.version` records how far a database has come.
///
/// Replicas starting together must not run the same step twice: every start-up takes a
/// transaction-scoped advisory lock first, so one replica migrates while the others wait, then
/// find the schema current and do nothing. DDL is transactional in PostgreSQL, so a failed step
/// leaves no half-made table behind. The write path `gateway_record` is not a step: its one
/// definition (``GatewayRecordFunction``) is installed after them, in the same transaction.
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
        ],
        // 2: one record in one round trip, through the function `gateway_record`. This step and
        // three later ones declared it in full; it is now defined once (GatewayRecordFunction)
        // and installed after the steps, replacing any earlier declaration.
        [],
        // 3: replay records keyed on one spelling of the Apple transaction id (lower-case hex of
        // its bytes), as SQLite's step 3; where both spellings were recorded, one record remains.
        [
            """
            INSERT INTO apple_pay_transactions
                (apple_pay_transaction_id, merchant_id, order_id, transaction_id, accepted_at_ms)
                SELECT lower(apple_pay_transaction_id), merchant_id, order_id, transaction_id, accepted_at_ms
                FROM apple_pay_transactions WHERE apple_pay_transaction_id <> lower(apple_pay_transaction_id)
                ON CONFLICT (apple_pay_transaction_id) DO NOTHING
            """,
            "DELETE FROM apple_pay_transactions WHERE apple_pay_transaction_id <> lower(apple_pay_transaction_id)",
            """
            UPDATE transactions SET apple_pay_transaction_id = lower(apple_pay_transaction_id)
                WHERE apple_pay_transaction_id <> lower(apple_pay_transaction_id)
            """,
        ],
        // 4: sessions, as SQLite's step 4: content sealed by the gateway, bookkeeping in clear.
        // IF NOT EXISTS: a database whose recorded version was set back (as the upgrade tests do)
        // runs this step again.
        [
            """
            CREATE TABLE IF NOT EXISTS sessions (
                session_id text PRIMARY KEY,
                merchant_id text NOT NULL,
                version text NOT NULL,
                update_status text NOT NULL,
                authentication_limit bigint NOT NULL,
                sealed_content bytea NOT NULL,
                created_at_ms bigint NOT NULL,
                expires_at_ms bigint NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at_ms)",
        ],
        // 5: replay records also keyed on the digest of the token's `data` (ApplePayReplayKey says
        // why), as SQLite's step 5; records of earlier releases have none and stay in force by
        // their transaction id. The record function gains the digest as a new overload: the
        // earlier one stays, so replicas of the previous release keep working during a rolling
        // upgrade (their records carry no digest, and are still refused by transaction id).
        [
            "ALTER TABLE apple_pay_transactions ADD COLUMN IF NOT EXISTS data_digest text",
            """
            CREATE UNIQUE INDEX IF NOT EXISTS apple_pay_transactions_by_data_digest
                ON apple_pay_transactions (data_digest)
            """,
        ],
        // 6: request fingerprints of earlier releases (unkeyed SHA-256, 32 bytes) are found through
        // this index by every migration check and sealed with the key; keyed fingerprints are 33
        // bytes, so the index stays empty and the check costs nothing.
        [
            """
            CREATE INDEX IF NOT EXISTS transactions_unsealed_fingerprints ON transactions (sequence)
                WHERE length(request_hash) = 32
            """
        ],
        // 7: sessions keyed by the SHA-256 of their id (SessionStorageKey): the id is the payer's
        // credential. PostgreSQL 11+ has sha256() built in.
        [
            """
            UPDATE sessions SET session_id = 'sha256:' || encode(sha256(convert_to(session_id, 'UTF8')), 'hex')
                WHERE session_id NOT LIKE 'sha256:%'
            """
        ],
        // 8: the transaction typed, column by column (ReceiptColumns), and the stored response
        // tagged with the API whose bytes it is; rows of earlier releases are filled from their MPGS
        // response, once, here (LegacyReceiptColumns). `gateway_record` writes the new columns; a
        // duplicate is reported by name only, and the store reads the stored transaction typed.
        [
            """
            ALTER TABLE transactions
                ADD COLUMN IF NOT EXISTS response_format text NOT NULL DEFAULT 'MPGS_JSON',
                ADD COLUMN IF NOT EXISTS api_version bigint,
                ADD COLUMN IF NOT EXISTS transaction_source text,
                ADD COLUMN IF NOT EXISTS transaction_reference text,
                ADD COLUMN IF NOT EXISTS card_number text,
                ADD COLUMN IF NOT EXISTS card_brand text,
                ADD COLUMN IF NOT EXISTS card_expiry_month bigint,
                ADD COLUMN IF NOT EXISTS card_expiry_year bigint,
                ADD COLUMN IF NOT EXISTS card_name text,
                ADD COLUMN IF NOT EXISTS device_number text,
                ADD COLUMN IF NOT EXISTS device_expiry_month bigint,
                ADD COLUMN IF NOT EXISTS device_expiry_year bigint,
                ADD COLUMN IF NOT EXISTS cryptogram_format text,
                ADD COLUMN IF NOT EXISTS acquirer_code text,
                ADD COLUMN IF NOT EXISTS acquirer_message text,
                ADD COLUMN IF NOT EXISTS authorized_minor bigint,
                ADD COLUMN IF NOT EXISTS authorization_code text,
                ADD COLUMN IF NOT EXISTS acquirer_receipt text,
                ADD COLUMN IF NOT EXISTS stan text,
                ADD COLUMN IF NOT EXISTS security_code_result text,
                ADD COLUMN IF NOT EXISTS order_amount_minor bigint,
                ADD COLUMN IF NOT EXISTS order_currency text,
                ADD COLUMN IF NOT EXISTS order_status text,
                ADD COLUMN IF NOT EXISTS order_total_authorized_minor bigint,
                ADD COLUMN IF NOT EXISTS order_total_captured_minor bigint,
                ADD COLUMN IF NOT EXISTS order_total_refunded_minor bigint,
                ADD COLUMN IF NOT EXISTS order_wallet_provider text,
                ADD COLUMN IF NOT EXISTS order_reference text,
                ADD COLUMN IF NOT EXISTS order_created_at_ms bigint,
                ADD COLUMN IF NOT EXISTS echo text
            """
        ] + LegacyReceiptColumns.postgresStatements + [
            "DROP FUNCTION IF EXISTS gateway_record(text, text, text, text, bytea, bytea, text, text, bigint, text, text, text, bigint, text, boolean, text, boolean, boolean, bigint, text, bigint, text, bigint, bigint, bigint, text, text, bigint, boolean, text)"
        ],
        // 9: gateway tokens (Tokenization), as SQLite's step 8: one repository per merchant, the
        // card sealed by the gateway, the token and its bookkeeping in clear.
        [
            """
            CREATE TABLE IF NOT EXISTS tokens (
                merchant_id text NOT NULL,
                token text NOT NULL,
                status text NOT NULL,
                sealed_card bytea NOT NULL,
                created_at_ms bigint NOT NULL,
                updated_at_ms bigint NOT NULL,
                PRIMARY KEY (merchant_id, token)
            )
            """
        ],
        // 10: 3-D Secure. Payer authentications (INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER, the
        // ACS challenge), typed, so any replica reads them; and the authentication an AUTHORIZE or
        // PAY carried, in the transaction's receipt columns (ReceiptColumns.authenticationColumns),
        // which `gateway_record` now writes too.
        [
            """
            CREATE TABLE IF NOT EXISTS authentications (
                merchant_id text NOT NULL,
                order_id text NOT NULL,
                transaction_id text NOT NULL,
                revision bigint NOT NULL,
                api_version bigint NOT NULL,
                status text NOT NULL,
                scenario text NOT NULL,
                amount_minor bigint NOT NULL,
                currency text NOT NULL,
                card_number text NOT NULL,
                card_brand text NOT NULL,
                card_expiry_month bigint,
                card_expiry_year bigint,
                card_name text,
                channel text NOT NULL,
                purpose text NOT NULL,
                accept_versions text,
                redirect_response_url text,
                challenge_id text UNIQUE,
                three_ds_transaction_id text,
                ds_transaction_id text,
                protocol_version text,
                three_ds_status text,
                acs_eci text,
                authentication_token text,
                created_at_ms bigint NOT NULL,
                updated_at_ms bigint NOT NULL,
                PRIMARY KEY (merchant_id, order_id, transaction_id)
            )
            """,
            """
            ALTER TABLE transactions
                ADD COLUMN IF NOT EXISTS authentication_transaction_id text,
                ADD COLUMN IF NOT EXISTS authentication_status text,
                ADD COLUMN IF NOT EXISTS authentication_version text,
                ADD COLUMN IF NOT EXISTS authentication_acs_eci text,
                ADD COLUMN IF NOT EXISTS authentication_3ds_transaction_id text,
                ADD COLUMN IF NOT EXISTS authentication_ds_transaction_id text,
                ADD COLUMN IF NOT EXISTS authentication_protocol_version text,
                ADD COLUMN IF NOT EXISTS authentication_3ds2_status text
            """,
            "DROP FUNCTION IF EXISTS gateway_record(text, text, text, text, bytea, bytea, text, text, bigint, text, text, text, bigint, text, boolean, text, boolean, boolean, bigint, text, bigint, text, bigint, bigint, bigint, text, text, bigint, boolean, text, text, bigint, text, text, text, text, bigint, bigint, text, text, bigint, bigint, text, text, text, bigint, text, text, text, text, bigint, text, text, bigint, bigint, bigint, text, text, bigint, text)",
        ],
        // 11: Merchant Administration (the /ma/ console), as SQLite's step 10: operators, sessions
        // by the digest of their cookie, failed logins per address, the audit log, and the order
        // search's indexes.
        [
            """
            CREATE TABLE IF NOT EXISTS console_operators (
                merchant_id text NOT NULL,
                name text NOT NULL,
                role text NOT NULL,
                password_hash text NOT NULL,
                failed_logins integer NOT NULL DEFAULT 0,
                locked_until_ms bigint,
                PRIMARY KEY (merchant_id, name)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS console_sessions (
                id_digest text PRIMARY KEY,
                merchant_id text NOT NULL,
                operator_name text NOT NULL,
                role text NOT NULL,
                csrf_token text NOT NULL,
                created_at_ms bigint NOT NULL,
                last_seen_at_ms bigint NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS console_sessions_by_operator ON console_sessions (merchant_id, operator_name)",
            "CREATE TABLE IF NOT EXISTS console_login_failures (address text NOT NULL, failed_at_ms bigint NOT NULL)",
            "CREATE INDEX IF NOT EXISTS console_login_failures_by_address ON console_login_failures (address, failed_at_ms)",
            """
            CREATE TABLE IF NOT EXISTS console_audit (
                sequence bigint GENERATED ALWAYS AS IDENTITY,
                merchant_id text NOT NULL,
                operator_name text NOT NULL,
                action text NOT NULL,
                detail text NOT NULL,
                address text NOT NULL,
                time_ms bigint NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS console_audit_by_merchant ON console_audit (merchant_id, time_ms)",
            "CREATE INDEX IF NOT EXISTS orders_by_merchant_created ON orders (merchant_id, created_at_ms)",
            "CREATE INDEX IF NOT EXISTS orders_by_merchant_status ON orders (merchant_id, status, created_at_ms)",
            "CREATE INDEX IF NOT EXISTS orders_by_merchant_wallet ON orders (merchant_id, wallet_provider, created_at_ms)",
            "CREATE INDEX IF NOT EXISTS transactions_by_card_last_four ON transactions (merchant_id, right(card_number, 4))",
            "CREATE INDEX IF NOT EXISTS transactions_by_device_last_four ON transactions (merchant_id, right(device_number, 4))",
        ],
        // ---- webhooks (issue 31) ----
        // 12: the notification outbox, as SQLite's step 11, written by the same statement as the
        // transaction (PostgresRecordWriter). Replicas lease rows with FOR UPDATE SKIP LOCKED
        // and a lease expiry, so a replica that dies mid-delivery leaves its rows to the others.
        [
            """
            CREATE TABLE IF NOT EXISTS notification_outbox (
                id bigserial PRIMARY KEY,
                merchant_id text NOT NULL,
                order_id text NOT NULL,
                transaction_id text NOT NULL,
                url text NOT NULL,
                order_url boolean NOT NULL,
                status text NOT NULL,
                attempts bigint NOT NULL DEFAULT 0,
                created_at_ms bigint NOT NULL,
                next_attempt_at_ms bigint NOT NULL,
                lease_owner text,
                lease_until_ms bigint,
                delivered_at_ms bigint,
                last_error text
            )
            """,
            "CREATE INDEX IF NOT EXISTS notification_outbox_due ON notification_outbox (status, next_attempt_at_ms)",
            "CREATE INDEX IF NOT EXISTS notification_outbox_order ON notification_outbox (merchant_id, order_id, id)",
        ],
        // ---- end webhooks ----
        // 13: API password rotation in Merchant Administration, as SQLite's step 12.
        [
            """
            CREATE TABLE IF NOT EXISTS api_password_changes (
                merchant_id text NOT NULL,
                digest text NOT NULL,
                kind text NOT NULL,
                operator_name text NOT NULL,
                time_ms bigint NOT NULL,
                PRIMARY KEY (merchant_id, digest, kind)
            )
            """
        ],
        // 14: the pending notifications in id order, for the delivery loop's lease, as SQLite's step 13.
        [
            "CREATE INDEX IF NOT EXISTS notification_outbox_pending ON notification_outbox (id) WHERE status = 'PENDING'"
        ],
        // 15 (PostgreSQL only): gateway_record plans its lookups on every call. PL/pgSQL keeps a
        // generic plan per connection, made while the tables are small and before any ANALYZE;
        // then the console's indexes that lead with merchant_id (step 11) tie with the primary
        // keys, and a plan that scans every order of the merchant for one order was kept as the
        // tables grew: each record cost more than the last (two replicas: 718/s before step 11,
        // about 270/s after it). A plan made per call sees the table's current size; the one
        // definition (GatewayRecordFunction) declares it so.
        [
            """
            DO $$
            DECLARE f regprocedure;
            BEGIN
                FOR f IN SELECT oid::regprocedure FROM pg_proc WHERE proname = 'gateway_record' LOOP
                    EXECUTE format('ALTER FUNCTION %s SET plan_cache_mode = force_custom_plan', f);
                END LOOP;
            END
            $$
            """
        ],
        // 16: the console's wallet and last-four indexes keep only rows a search can find, as
        // SQLite's step 14.
        [
            "DROP INDEX IF EXISTS orders_by_merchant_wallet",
            """
            CREATE INDEX orders_by_merchant_wallet ON orders (merchant_id, wallet_provider, created_at_ms)
                WHERE wallet_provider IS NOT NULL
            """,
            "DROP INDEX IF EXISTS transactions_by_card_last_four",
            """
            CREATE INDEX transactions_by_card_last_four ON transactions (merchant_id, right(card_number, 4))
                WHERE card_number IS NOT NULL
            """,
            "DROP INDEX IF EXISTS transactions_by_device_last_four",
            """
            CREATE INDEX transactions_by_device_last_four ON transactions (merchant_id, right(device_number, 4))
                WHERE device_number IS NOT NULL
            """,
        ],
        // 17: the keys replicas must share, as SQLite's step 16.
        [
            """
            CREATE TABLE IF NOT EXISTS shared_keys (
                name text PRIMARY KEY,
                check_value bytea NOT NULL,
                secret bytea
            )
            """
        ],
        // 18: 3-D Secure 1 (issue 64), as SQLite's step 17.
        [
            """
            CREATE TABLE IF NOT EXISTS three_ds1_authentications (
                merchant_id text NOT NULL,
                three_d_secure_id text NOT NULL,
                revision bigint NOT NULL,
                api_version bigint NOT NULL,
                status text NOT NULL,
                scenario text NOT NULL,
                amount_minor bigint NOT NULL,
                currency text NOT NULL,
                card_number text NOT NULL,
                card_brand text NOT NULL,
                card_expiry_month bigint,
                card_expiry_year bigint,
                card_name text,
                response_url text NOT NULL,
                page_generation_mode text NOT NULL,
                pa_req text UNIQUE,
                pa_res text,
                ve_res_enrolled text NOT NULL,
                pa_res_status text,
                acs_eci text,
                authentication_token text,
                xid text NOT NULL,
                used_by_order_id text,
                created_at_ms bigint NOT NULL,
                updated_at_ms bigint NOT NULL,
                PRIMARY KEY (merchant_id, three_d_secure_id)
            )
            """
        ],
        // 19 (issue 64): the risk assessment and its review, as SQLite's step 18; `gateway_record`
        // writes them with the receipt's other columns.
        [
            """
            ALTER TABLE transactions
                ADD COLUMN IF NOT EXISTS risk_gateway_code text,
                ADD COLUMN IF NOT EXISTS risk_rule text,
                ADD COLUMN IF NOT EXISTS risk_review_decision text,
                ADD COLUMN IF NOT EXISTS risk_review_operator text,
                ADD COLUMN IF NOT EXISTS risk_review_at_ms bigint
            """
        ],
        // 20: the provider a browser payment was paid through (issue 64), as SQLite's step 19.
        ["ALTER TABLE transactions ADD COLUMN IF NOT EXISTS browser_payment_type text"],
        // 21: storedOnFile as the payment sent it (issue 64), as SQLite's step 20.
        ["ALTER TABLE transactions ADD COLUMN IF NOT EXISTS stored_on_file text"],
        // 22: a CONFIRM_AT_MERCHANT browser payment's confirmation (issue 64), as SQLite's step 21.
        [
            """
            ALTER TABLE transactions
                ADD COLUMN IF NOT EXISTS browser_payment_confirmation text,
                ADD COLUMN IF NOT EXISTS browser_payment_confirm_hash text
            """
        ],
    ]

    private static func sealLegacyFingerprints(
        _ connection: PostgresConnection,
        _ logger: Logger,
        _ seal: ([UInt8]) -> [UInt8]
    ) async throws {
        let rows = try await connection.query(
            "SELECT sequence, request_hash FROM transactions WHERE length(request_hash) = 32",
            logger: logger
        )
        var unsealed: [(Int64, [UInt8])] = []
        for try await (sequence, hash) in rows.decode((Int64, ByteBuffer).self) {
            unsealed.append((sequence, Array(hash.readableBytesView)))
        }
        for (sequence, hash) in unsealed {
            try await connection.query(
                "UPDATE transactions SET request_hash = \(ByteBuffer(bytes: seal(hash))) WHERE sequence = \(sequence)",
                logger: logger
            )
        }
        if !unsealed.isEmpty { logger.notice("stored request fingerprints sealed with the key", metadata: ["rows": "\(unsealed.count)"]) }
    }

    struct NewerSchema: Error, CustomStringConvertible {
        let version: Int64
        var description: String {
            "the database has schema version \(version), newer than this gateway knows (\(steps.count))"
        }
    }

    /// Applies the missing steps, all in one transaction under the migration lock.
    /// `seal` turns the unkeyed request hashes earlier releases stored into keyed ones, in the
    /// same transaction and under the same lock, so every replica sees them sealed or not at all.
    static func migrate(
        _ connection: PostgresConnection,
        logger: Logger,
        sealingLegacyFingerprints seal: (@Sendable ([UInt8]) -> [UInt8])? = nil
    ) async throws {
        try await connection.withTransaction(logger: logger) { connection in
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
            // The one write path, as this build defines it (installed only when it differs).
            try await GatewayRecordFunction.install(connection, logger)
            if let seal { try await sealLegacyFingerprints(connection, logger, seal) }
            if from < Int64(steps.count) {
                try await connection.query("UPDATE gateway_schema SET version = \(Int64(steps.count))", logger: logger)
                logger.notice("PostgreSQL schema migrated", metadata: ["from": "\(from)", "to": "\(steps.count)"])
            }
        }
    }
}
