import GatewayCore

/// 3-D Secure 1 authentications' statements, the same on SQLite and PostgreSQL.
enum ThreeDS1Statements {
    static func select(merchantId: String, threeDSecureId: String) -> StoreStatement {
        select("merchant_id = ? AND three_d_secure_id = ?", [.text(merchantId), .text(threeDSecureId)])
    }

    static func select(paReq: String) -> StoreStatement {
        select("pa_req = ?", [.text(paReq)])
    }

    static func insert(_ authentication: ThreeDS1Authentication) -> StoreStatement {
        let values = ThreeDS1Columns.values(authentication)
        let names = ThreeDS1Columns.names
        return StoreStatement(
            """
            INSERT INTO three_ds1_authentications (\(names.joined(separator: ", "))) VALUES (\(StoreStatement.placeholders(names.count)))
            ON CONFLICT (merchant_id, three_d_secure_id) DO NOTHING RETURNING 1
            """,
            names.map { values[$0] ?? .null }
        )
    }

    static func replace(_ authentication: ThreeDS1Authentication, expectedRevision: Int64) -> StoreStatement {
        let values = ThreeDS1Columns.values(authentication)
        let columns = ThreeDS1Columns.updatable
        return StoreStatement(
            """
            UPDATE three_ds1_authentications SET \(columns.map { "\($0) = ?" }.joined(separator: ", "))
            WHERE merchant_id = ? AND three_d_secure_id = ? AND revision = ? RETURNING 1
            """,
            columns.map { values[$0] ?? .null } + [
                .text(authentication.merchantId), .text(authentication.threeDSecureId), .integer(expectedRevision),
            ]
        )
    }

    private static func select(_ condition: String, _ values: [StoredValue]) -> StoreStatement {
        StoreStatement("SELECT \(ThreeDS1Columns.selectList) FROM three_ds1_authentications WHERE \(condition)", values)
    }
}
