import GatewayCore

/// Payer authentications' statements, the same on SQLite and PostgreSQL (``StoreStatement``).
enum AuthenticationStatements {
    static func select(merchantId: String, orderId: String, transactionId: String) -> StoreStatement {
        select("merchant_id = ? AND order_id = ? AND transaction_id = ?", [.text(merchantId), .text(orderId), .text(transactionId)])
    }

    static func select(challengeId: String) -> StoreStatement {
        select("challenge_id = ?", [.text(challengeId)])
    }

    static func select(merchantId: String, orderId: String) -> StoreStatement {
        select("merchant_id = ? AND order_id = ? ORDER BY created_at_ms, transaction_id", [.text(merchantId), .text(orderId)])
    }

    static func insert(_ authentication: PayerAuthentication) -> StoreStatement {
        let values = AuthenticationColumns.values(authentication)
        let names = AuthenticationColumns.names
        return StoreStatement(
            """
            INSERT INTO authentications (\(names.joined(separator: ", "))) VALUES (\(StoreStatement.placeholders(names.count)))
            ON CONFLICT (merchant_id, order_id, transaction_id) DO NOTHING RETURNING 1
            """,
            names.map { values[$0] ?? .null }
        )
    }

    static func replace(_ authentication: PayerAuthentication, expectedRevision: Int64) -> StoreStatement {
        let values = AuthenticationColumns.values(authentication)
        let columns = AuthenticationColumns.updatable
        return StoreStatement(
            """
            UPDATE authentications SET \(columns.map { "\($0) = ?" }.joined(separator: ", "))
            WHERE merchant_id = ? AND order_id = ? AND transaction_id = ? AND revision = ? RETURNING 1
            """,
            columns.map { values[$0] ?? .null } + [
                .text(authentication.merchantId), .text(authentication.orderId), .text(authentication.transactionId),
                .integer(expectedRevision),
            ]
        )
    }

    private static func select(_ condition: String, _ values: [StoredValue]) -> StoreStatement {
        StoreStatement("SELECT \(AuthenticationColumns.selectList) FROM authentications WHERE \(condition)", values)
    }
}
