import GatewayCore

/// Fills the typed receipt columns of transactions an earlier release recorded, which kept only
/// the MPGS response: read once, in SQL, by the migration that adds the columns (SQLite's step 7,
/// PostgreSQL's step 8). After it nothing reads a stored response for what it says.
///
/// Each release's response carried the order's amounts in major units; the currency's exponent
/// turns them back (ISO 4217: these currencies have 0 or 3 minor digits, the rest 2). The echo
/// column takes the whole response: the MPGS front end projects the order's description out of
/// it exactly as earlier releases projected it out of the response.
enum LegacyReceiptColumns {
    static let zeroDecimalCurrencies = ["CLP", "ISK", "JPY", "KRW", "UGX", "VND", "XAF", "XOF"]
    static let threeDecimalCurrencies = ["BHD", "JOD", "KWD", "OMR", "TND"]

    /// SQL for the number of minor units in one major unit of `currencyColumn`'s currency.
    static func scale(_ currencyColumn: String) -> String {
        func list(_ codes: [String]) -> String { codes.map { "'\($0)'" }.joined(separator: ", ") }
        return """
            (CASE WHEN \(currencyColumn) IN (\(list(zeroDecimalCurrencies))) THEN 1 \
            WHEN \(currencyColumn) IN (\(list(threeDecimalCurrencies))) THEN 1000 ELSE 100 END)
            """
    }

    /// Each typed column and the response member it comes from (a JSON path), for text columns.
    static let textMembers: [(column: String, path: [String])] = [
        ("transaction_reference", ["transaction", "reference"]),
        ("card_number", ["sourceOfFunds", "provided", "card", "number"]),
        ("card_brand", ["sourceOfFunds", "provided", "card", "brand"]),
        ("card_name", ["sourceOfFunds", "provided", "card", "nameOnCard"]),
        ("device_number", ["sourceOfFunds", "provided", "card", "deviceSpecificNumber"]),
        ("cryptogram_format", ["sourceOfFunds", "provided", "card", "devicePayment", "cryptogramFormat"]),
        ("acquirer_code", ["response", "acquirerCode"]),
        ("acquirer_message", ["response", "acquirerMessage"]),
        ("security_code_result", ["response", "cardSecurityCode", "gatewayCode"]),
        ("authorization_code", ["transaction", "authorizationCode"]),
        ("acquirer_receipt", ["transaction", "receipt"]),
        ("stan", ["transaction", "stan"]),
        ("order_currency", ["order", "currency"]),
        ("order_status", ["order", "status"]),
        ("order_wallet_provider", ["order", "walletProvider"]),
        ("order_reference", ["order", "reference"]),
    ]

    /// Integer columns written as JSON strings or integers.
    static let integerMembers: [(column: String, path: [String])] = [
        ("api_version", ["version"]),
        ("card_expiry_month", ["sourceOfFunds", "provided", "card", "expiry", "month"]),
        ("card_expiry_year", ["sourceOfFunds", "provided", "card", "expiry", "year"]),
        ("device_expiry_month", ["sourceOfFunds", "provided", "card", "deviceSpecificExpiry", "month"]),
        ("device_expiry_year", ["sourceOfFunds", "provided", "card", "deviceSpecificExpiry", "year"]),
    ]

    /// Money columns, in major units in the response.
    static let moneyMembers: [(column: String, path: [String])] = [
        ("order_amount_minor", ["order", "amount"]),
        ("order_total_authorized_minor", ["order", "totalAuthorizedAmount"]),
        ("order_total_captured_minor", ["order", "totalCapturedAmount"]),
        ("order_total_refunded_minor", ["order", "totalRefundedAmount"]),
    ]

    /// SQLite (JSON1): the legacy body is `legacy.body`, the row's currency `transactions.currency`.
    static var sqliteUpdate: String {
        func path(_ members: [String]) -> String { "'$." + members.joined(separator: ".") + "'" }
        var assignments = textMembers.map { "\($0.column) = json_extract(legacy.body, \(path($0.path)))" }
        assignments += integerMembers.map { "\($0.column) = CAST(json_extract(legacy.body, \(path($0.path))) AS INTEGER)" }
        assignments += moneyMembers.map {
            "\($0.column) = CAST(round(json_extract(legacy.body, \(path($0.path))) * legacy.scale) AS INTEGER)"
        }
        assignments += [
            // Releases before the source was echoed took the reference's default.
            "transaction_source = coalesce(json_extract(legacy.body, '$.transaction.source'), 'INTERNET')",
            "authorized_minor = CASE WHEN transactions.succeeded = 1 THEN transactions.amount_minor ELSE 0 END",
            """
            order_created_at_ms = coalesce((SELECT o.created_at_ms FROM orders o \
            WHERE o.merchant_id = transactions.merchant_id AND o.order_id = transactions.order_id), transactions.created_at_ms)
            """,
            "echo = legacy.body",
        ]
        return """
            UPDATE transactions SET \(assignments.joined(separator: ",\n    "))
            FROM (SELECT rowid AS id, CAST(response_body AS TEXT) AS body, \(scale("currency")) AS scale
                FROM transactions WHERE api_version IS NULL AND json_valid(CAST(response_body AS TEXT))) AS legacy
            WHERE transactions.rowid = legacy.id;
            """
    }

    /// PostgreSQL (jsonb): the same, through a function that reads an unreadable body as NULL
    /// (PostgreSQL 15 has no `pg_input_is_valid`).
    static var postgresStatements: [String] {
        func path(_ members: [String]) -> String { "'{" + members.joined(separator: ",") + "}'" }
        var assignments = textMembers.map { "\($0.column) = legacy.body #>> \(path($0.path))" }
        assignments += integerMembers.map { "\($0.column) = (legacy.body #>> \(path($0.path)))::bigint" }
        assignments += moneyMembers.map {
            "\($0.column) = round((legacy.body #>> \(path($0.path)))::numeric * legacy.scale)::bigint"
        }
        assignments += [
            "transaction_source = coalesce(legacy.body #>> '{transaction,source}', 'INTERNET')",
            "authorized_minor = CASE WHEN t.succeeded THEN t.amount_minor ELSE 0 END",
            """
            order_created_at_ms = coalesce((SELECT o.created_at_ms FROM orders o \
            WHERE o.merchant_id = t.merchant_id AND o.order_id = t.order_id), t.created_at_ms)
            """,
            "echo = legacy.body::text",
        ]
        return [
            """
            CREATE FUNCTION pg_temp.gateway_legacy_json(body bytea) RETURNS jsonb LANGUAGE plpgsql AS $$
            BEGIN
                RETURN convert_from(body, 'UTF8')::jsonb;
            EXCEPTION WHEN others THEN
                RETURN NULL;
            END
            $$
            """,
            """
            UPDATE transactions t SET \(assignments.joined(separator: ",\n    "))
            FROM (SELECT sequence, pg_temp.gateway_legacy_json(response_body) AS body, \(scale("currency")) AS scale
                FROM transactions WHERE api_version IS NULL) AS legacy
            WHERE t.sequence = legacy.sequence AND legacy.body IS NOT NULL
            """,
        ]
    }
}
