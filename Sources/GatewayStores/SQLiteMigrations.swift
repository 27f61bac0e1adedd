import GatewayCore

/// The schema, as numbered steps. `PRAGMA user_version` records how far a database has come;
/// start-up applies the missing steps in order, each in its own transaction.
enum SQLiteMigrations {
    static let steps: [String] = [
        // 1: orders, transactions with the exact response returned, Apple Pay replay records.
        """
        CREATE TABLE orders (
            merchant_id TEXT NOT NULL,
            order_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            status TEXT NOT NULL,
            total_authorized_minor INTEGER NOT NULL,
            total_captured_minor INTEGER NOT NULL,
            total_refunded_minor INTEGER NOT NULL,
            wallet_provider TEXT,
            reference TEXT,
            initial_succeeded INTEGER NOT NULL DEFAULT 0,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (merchant_id, order_id)
        );
        CREATE TABLE transactions (
            merchant_id TEXT NOT NULL,
            order_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            operation TEXT NOT NULL,
            request_hash BLOB NOT NULL,
            response_body BLOB NOT NULL,
            result TEXT NOT NULL,
            gateway_code TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            eci_indicator TEXT,
            apple_pay_transaction_id TEXT,
            created_at_ms INTEGER NOT NULL,
            PRIMARY KEY (merchant_id, order_id, transaction_id)
        );
        CREATE TABLE apple_pay_transactions (
            apple_pay_transaction_id TEXT PRIMARY KEY,
            merchant_id TEXT NOT NULL,
            order_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            accepted_at_ms INTEGER NOT NULL
        );
        CREATE INDEX apple_pay_transactions_by_time ON apple_pay_transactions (accepted_at_ms);
        """,
        // 2: follow-on operations need each transaction's type, outcome and whether it was voided,
        // and orders a version for optimistic concurrency between replicas.
        """
        ALTER TABLE transactions ADD COLUMN type TEXT NOT NULL DEFAULT '';
        ALTER TABLE transactions ADD COLUMN succeeded INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE transactions ADD COLUMN voided INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE transactions ADD COLUMN target_transaction_id TEXT;
        ALTER TABLE orders ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        UPDATE transactions SET
            type = CASE operation WHEN 'AUTHORIZE' THEN 'AUTHORIZATION' WHEN 'PAY' THEN 'PAYMENT' ELSE operation END,
            succeeded = (result = 'SUCCESS');
        """,
        // 3: replay records keyed on one spelling of the Apple transaction id (lower-case hex of
        // its bytes). Older releases kept the id as the client sent it, so an upper-cased copy of
        // a used token met no record; where both spellings were recorded, one record remains.
        """
        INSERT OR IGNORE INTO apple_pay_transactions
            (apple_pay_transaction_id, merchant_id, order_id, transaction_id, accepted_at_ms)
            SELECT lower(apple_pay_transaction_id), merchant_id, order_id, transaction_id, accepted_at_ms
            FROM apple_pay_transactions WHERE apple_pay_transaction_id <> lower(apple_pay_transaction_id);
        DELETE FROM apple_pay_transactions WHERE apple_pay_transaction_id <> lower(apple_pay_transaction_id);
        UPDATE transactions SET apple_pay_transaction_id = lower(apple_pay_transaction_id)
            WHERE apple_pay_transaction_id <> lower(apple_pay_transaction_id);
        """,
        // 4: sessions (the Mobile SDK flow). Their content is sealed by the gateway before it
        // gets here; only the bookkeeping is in clear.
        """
        CREATE TABLE IF NOT EXISTS sessions (
            session_id TEXT PRIMARY KEY,
            merchant_id TEXT NOT NULL,
            version TEXT NOT NULL,
            update_status TEXT NOT NULL,
            authentication_limit INTEGER NOT NULL,
            sealed_content BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at_ms);
        """,
        // 5: replay records also keyed on the digest of the token's `data` (ApplePayReplayKey says
        // why). Records of earlier releases have none and stay in force by their transaction id.
        """
        ALTER TABLE apple_pay_transactions ADD COLUMN data_digest TEXT;
        CREATE UNIQUE INDEX apple_pay_transactions_by_data_digest ON apple_pay_transactions (data_digest);
        """,
        // 6: request fingerprints of earlier releases (unkeyed SHA-256, 32 bytes) are found through
        // this index when the store opens and sealed with the key (SQLiteTransactionStore). Keyed
        // fingerprints are 33 bytes, so the index stays empty and the check costs nothing.
        """
        CREATE INDEX transactions_unsealed_fingerprints ON transactions (created_at_ms) WHERE length(request_hash) = 32;
        """,
        // 7: the transaction typed, column by column (ReceiptColumns), and the stored response
        // tagged with the API whose bytes it is. Rows of earlier releases are filled from their
        // MPGS response, once, here (LegacyReceiptColumns).
        """
        ALTER TABLE transactions ADD COLUMN response_format TEXT NOT NULL DEFAULT 'MPGS_JSON';
        ALTER TABLE transactions ADD COLUMN api_version INTEGER;
        ALTER TABLE transactions ADD COLUMN transaction_source TEXT;
        ALTER TABLE transactions ADD COLUMN transaction_reference TEXT;
        ALTER TABLE transactions ADD COLUMN card_number TEXT;
        ALTER TABLE transactions ADD COLUMN card_brand TEXT;
        ALTER TABLE transactions ADD COLUMN card_expiry_month INTEGER;
        ALTER TABLE transactions ADD COLUMN card_expiry_year INTEGER;
        ALTER TABLE transactions ADD COLUMN card_name TEXT;
        ALTER TABLE transactions ADD COLUMN device_number TEXT;
        ALTER TABLE transactions ADD COLUMN device_expiry_month INTEGER;
        ALTER TABLE transactions ADD COLUMN device_expiry_year INTEGER;
        ALTER TABLE transactions ADD COLUMN cryptogram_format TEXT;
        ALTER TABLE transactions ADD COLUMN acquirer_code TEXT;
        ALTER TABLE transactions ADD COLUMN acquirer_message TEXT;
        ALTER TABLE transactions ADD COLUMN authorized_minor INTEGER;
        ALTER TABLE transactions ADD COLUMN authorization_code TEXT;
        ALTER TABLE transactions ADD COLUMN acquirer_receipt TEXT;
        ALTER TABLE transactions ADD COLUMN stan TEXT;
        ALTER TABLE transactions ADD COLUMN security_code_result TEXT;
        ALTER TABLE transactions ADD COLUMN order_amount_minor INTEGER;
        ALTER TABLE transactions ADD COLUMN order_currency TEXT;
        ALTER TABLE transactions ADD COLUMN order_status TEXT;
        ALTER TABLE transactions ADD COLUMN order_total_authorized_minor INTEGER;
        ALTER TABLE transactions ADD COLUMN order_total_captured_minor INTEGER;
        ALTER TABLE transactions ADD COLUMN order_total_refunded_minor INTEGER;
        ALTER TABLE transactions ADD COLUMN order_wallet_provider TEXT;
        ALTER TABLE transactions ADD COLUMN order_reference TEXT;
        ALTER TABLE transactions ADD COLUMN order_created_at_ms INTEGER;
        ALTER TABLE transactions ADD COLUMN echo TEXT;
        """ + LegacyReceiptColumns.sqliteUpdate,
        // 8: gateway tokens (Tokenization), one repository per merchant. The card is sealed by the
        // gateway before it gets here; only the token and its bookkeeping are in clear.
        """
        CREATE TABLE IF NOT EXISTS tokens (
            merchant_id TEXT NOT NULL,
            token TEXT NOT NULL,
            status TEXT NOT NULL,
            sealed_card BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (merchant_id, token)
        );
        """,
        // 9: 3-D Secure. Payer authentications (INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER, the
        // ACS challenge), typed, so any replica reads them; and the authentication an AUTHORIZE or
        // PAY carried, in the transaction's receipt columns (ReceiptColumns.authenticationColumns).
        """
        CREATE TABLE authentications (
            merchant_id TEXT NOT NULL,
            order_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            revision INTEGER NOT NULL,
            api_version INTEGER NOT NULL,
            status TEXT NOT NULL,
            scenario TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            card_number TEXT NOT NULL,
            card_brand TEXT NOT NULL,
            card_expiry_month INTEGER,
            card_expiry_year INTEGER,
            card_name TEXT,
            channel TEXT NOT NULL,
            purpose TEXT NOT NULL,
            accept_versions TEXT,
            redirect_response_url TEXT,
            challenge_id TEXT UNIQUE,
            three_ds_transaction_id TEXT,
            ds_transaction_id TEXT,
            protocol_version TEXT,
            three_ds_status TEXT,
            acs_eci TEXT,
            authentication_token TEXT,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (merchant_id, order_id, transaction_id)
        );
        ALTER TABLE transactions ADD COLUMN authentication_transaction_id TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_status TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_version TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_acs_eci TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_3ds_transaction_id TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_ds_transaction_id TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_protocol_version TEXT;
        ALTER TABLE transactions ADD COLUMN authentication_3ds2_status TEXT;
        """,
        // 10: Merchant Administration (the /ma/ console): operators (password as a PBKDF2 hash),
        // sessions by the digest of their cookie, failed logins per address, the audit log, and
        // the indexes its order search uses (newest first within a merchant, by status, wallet,
        // and the last four digits of the card or device number).
        """
        CREATE TABLE IF NOT EXISTS console_operators (
            merchant_id TEXT NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            failed_logins INTEGER NOT NULL DEFAULT 0,
            locked_until_ms INTEGER,
            PRIMARY KEY (merchant_id, name)
        );
        CREATE TABLE IF NOT EXISTS console_sessions (
            id_digest TEXT PRIMARY KEY,
            merchant_id TEXT NOT NULL,
            operator_name TEXT NOT NULL,
            role TEXT NOT NULL,
            csrf_token TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL,
            last_seen_at_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS console_sessions_by_operator ON console_sessions (merchant_id, operator_name);
        CREATE TABLE IF NOT EXISTS console_login_failures (
            address TEXT NOT NULL,
            failed_at_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS console_login_failures_by_address ON console_login_failures (address, failed_at_ms);
        CREATE TABLE IF NOT EXISTS console_audit (
            merchant_id TEXT NOT NULL,
            operator_name TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL,
            address TEXT NOT NULL,
            time_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS console_audit_by_merchant ON console_audit (merchant_id, time_ms);
        CREATE INDEX IF NOT EXISTS orders_by_merchant_created ON orders (merchant_id, created_at_ms);
        CREATE INDEX IF NOT EXISTS orders_by_merchant_status ON orders (merchant_id, status, created_at_ms);
        CREATE INDEX IF NOT EXISTS orders_by_merchant_wallet ON orders (merchant_id, wallet_provider, created_at_ms);
        CREATE INDEX IF NOT EXISTS transactions_by_card_last_four ON transactions (merchant_id, substr(card_number, -4));
        CREATE INDEX IF NOT EXISTS transactions_by_device_last_four ON transactions (merchant_id, substr(device_number, -4));
        """,
        // ---- webhooks (issue 31) ----
        // 11: the notification outbox, written in the transaction's own store transaction; the id
        // increases in commit order and is the X-Notification-Id. A lease (owner, until) says
        // which delivery loop is sending it.
        """
        CREATE TABLE IF NOT EXISTS notification_outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            merchant_id TEXT NOT NULL,
            order_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            url TEXT NOT NULL,
            order_url INTEGER NOT NULL,
            status TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at_ms INTEGER NOT NULL,
            next_attempt_at_ms INTEGER NOT NULL,
            lease_owner TEXT,
            lease_until_ms INTEGER,
            delivered_at_ms INTEGER,
            last_error TEXT
        );
        CREATE INDEX IF NOT EXISTS notification_outbox_due ON notification_outbox (status, next_attempt_at_ms);
        CREATE INDEX IF NOT EXISTS notification_outbox_order ON notification_outbox (merchant_id, order_id, id);
        """,
        // ---- end webhooks ----
        // 12: API password rotation in Merchant Administration: an append-only log of passwords
        // added and retired, by the SHA-256 of each (never the password).
        """
        CREATE TABLE IF NOT EXISTS api_password_changes (
            merchant_id TEXT NOT NULL,
            digest TEXT NOT NULL,
            kind TEXT NOT NULL,
            operator_name TEXT NOT NULL,
            time_ms INTEGER NOT NULL,
            PRIMARY KEY (merchant_id, digest, kind)
        );
        """,
        // 13: the pending notifications in id order, which the delivery loop's lease walks until it
        // has enough: through the due index it read and sorted every pending row, 7.4 ms a lease
        // with 6,000 pending (0.03 ms this way), and a busy outbox is leased many times a second.
        """
        CREATE INDEX IF NOT EXISTS notification_outbox_pending ON notification_outbox (id) WHERE status = 'PENDING';
        """,
        // 14: the console's wallet and last-four indexes keep only rows a search can find. A plain
        // card payment has no wallet and no device number, yet each AUTHORIZE inserted an entry
        // for the NULL into both: two B-tree inserts, and about 1 KB of the 8.9 KB it wrote to
        // the WAL. The search says `IS NOT NULL` beside each last-four test, so that these
        // indexes still serve it (SQLite does not infer it from `substr(...) = ?`).
        """
        DROP INDEX IF EXISTS orders_by_merchant_wallet;
        CREATE INDEX orders_by_merchant_wallet ON orders (merchant_id, wallet_provider, created_at_ms)
            WHERE wallet_provider IS NOT NULL;
        DROP INDEX IF EXISTS transactions_by_card_last_four;
        CREATE INDEX transactions_by_card_last_four ON transactions (merchant_id, substr(card_number, -4))
            WHERE card_number IS NOT NULL;
        DROP INDEX IF EXISTS transactions_by_device_last_four;
        CREATE INDEX transactions_by_device_last_four ON transactions (merchant_id, substr(device_number, -4))
            WHERE device_number IS NOT NULL;
        """,
        // 15: replay records checked in memory (SQLiteReplayLedger) and appended here in time order.
        // The primary key on the transaction id and the unique index on the digest go: two random
        // keys, 60% of a token AUTHORIZE's bytes written. The index by time stays, for pruning.
        """
        CREATE TABLE apple_pay_transactions_appended (
            apple_pay_transaction_id TEXT NOT NULL,
            merchant_id TEXT NOT NULL,
            order_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            accepted_at_ms INTEGER NOT NULL,
            data_digest TEXT
        );
        INSERT INTO apple_pay_transactions_appended
            SELECT apple_pay_transaction_id, merchant_id, order_id, transaction_id, accepted_at_ms, data_digest
            FROM apple_pay_transactions ORDER BY accepted_at_ms;
        DROP TABLE apple_pay_transactions;
        ALTER TABLE apple_pay_transactions_appended RENAME TO apple_pay_transactions;
        CREATE INDEX apple_pay_transactions_by_time ON apple_pay_transactions (accepted_at_ms);
        """,
        // 16: the keys replicas must share, by configuration key: a check value of each (never the
        // key), and the key itself only where sandbox mode generated it (GatewayKeys).
        """
        CREATE TABLE shared_keys (
            name TEXT PRIMARY KEY,
            check_value BLOB NOT NULL,
            secret BLOB
        );
        """,
        // 17: 3-D Secure 1 (issue 64): each merchant's authentications by 3DSecureId, typed
        // (ThreeDS1Columns), the PaReq of the ACS page unique.
        """
        CREATE TABLE three_ds1_authentications (
            merchant_id TEXT NOT NULL,
            three_d_secure_id TEXT NOT NULL,
            revision INTEGER NOT NULL,
            api_version INTEGER NOT NULL,
            status TEXT NOT NULL,
            scenario TEXT NOT NULL,
            amount_minor INTEGER NOT NULL,
            currency TEXT NOT NULL,
            card_number TEXT NOT NULL,
            card_brand TEXT NOT NULL,
            card_expiry_month INTEGER,
            card_expiry_year INTEGER,
            card_name TEXT,
            response_url TEXT NOT NULL,
            page_generation_mode TEXT NOT NULL,
            pa_req TEXT UNIQUE,
            pa_res TEXT,
            ve_res_enrolled TEXT NOT NULL,
            pa_res_status TEXT,
            acs_eci TEXT,
            authentication_token TEXT,
            xid TEXT NOT NULL,
            used_by_order_id TEXT,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (merchant_id, three_d_secure_id)
        );
        """,
        // 18 (issue 64): the risk assessment an AUTHORIZE, PAY or VERIFY got and its review, in
        // the transaction's receipt columns (ReceiptColumns.riskColumns).
        """
        ALTER TABLE transactions ADD COLUMN risk_gateway_code TEXT;
        ALTER TABLE transactions ADD COLUMN risk_rule TEXT;
        ALTER TABLE transactions ADD COLUMN risk_review_decision TEXT;
        ALTER TABLE transactions ADD COLUMN risk_review_operator TEXT;
        ALTER TABLE transactions ADD COLUMN risk_review_at_ms INTEGER;
        """,
        // 19: the provider a browser payment was paid through (issue 64), beside the card columns
        // a card payment fills.
        """
        ALTER TABLE transactions ADD COLUMN browser_payment_type TEXT;
        """,
        // 20: sourceOfFunds.provided.card.storedOnFile as the payment sent it (issue 64: payments in
        // a series), so responses and Retrieve Order say STORED or TO_BE_STORED.
        """
        ALTER TABLE transactions ADD COLUMN stored_on_file TEXT;
        """,
        // 21: a CONFIRM_AT_MERCHANT browser payment's confirmation (issue 64): awaiting
        // CONFIRM_BROWSER_PAYMENT, or confirmed by the request whose fingerprint is kept
        // (ReceiptColumns.merchantConfirmationColumns).
        """
        ALTER TABLE transactions ADD COLUMN browser_payment_confirmation TEXT;
        ALTER TABLE transactions ADD COLUMN browser_payment_confirm_hash TEXT;
        """,
    ]

    /// Applies the missing steps up to `target` (all of them unless a test wants an older schema).
    static func migrate(_ connection: SQLiteConnection, upTo target: Int = steps.count) throws {
        let current = try connection.query("PRAGMA user_version").first?.first?.integer ?? 0
        guard current <= Int64(steps.count) else {
            throw SQLiteConnection.Failure(
                code: 0,
                message: "the database has schema version \(current), newer than this gateway knows (\(steps.count))"
            )
        }
        for (index, step) in steps.prefix(target).enumerated() where Int64(index + 1) > current {
            try connection.transaction {
                try connection.execute(step)
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
