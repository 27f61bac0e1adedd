import GatewayCore

/// Payer authentications in the SQLite file: reads on the reader connection, writes on the
/// writer's queue, each its own autocommit.
extension SQLiteTransactionStore: AuthenticationStore {
    package func authentication(merchantId: String, orderId: String, transactionId: String) async throws -> PayerAuthentication? {
        try await select(
            "merchant_id = ? AND order_id = ? AND transaction_id = ?",
            [.text(merchantId), .text(orderId), .text(transactionId)]
        ).first
    }

    package func authentication(challengeId: String) async throws -> PayerAuthentication? {
        try await select("challenge_id = ?", [.text(challengeId)]).first
    }

    package func authentications(merchantId: String, orderId: String) async throws -> [PayerAuthentication] {
        try await select("merchant_id = ? AND order_id = ? ORDER BY created_at_ms, transaction_id", [.text(merchantId), .text(orderId)])
    }

    package func insertAuthentication(_ authentication: PayerAuthentication) async throws -> Bool {
        let values = AuthenticationColumns.values(authentication)
        let names = AuthenticationColumns.names
        return try await writer.perform { connection in
            try connection.query(
                """
                INSERT INTO authentications (\(names.joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))
                ON CONFLICT (merchant_id, order_id, transaction_id) DO NOTHING
                """,
                names.map { SQLiteValue(values[$0] ?? .null) }
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    package func replaceAuthentication(_ authentication: PayerAuthentication, expectedRevision: Int64) async throws -> Bool {
        let values = AuthenticationColumns.values(authentication)
        let columns = AuthenticationColumns.updatable
        return try await writer.perform { connection in
            try connection.query(
                """
                UPDATE authentications SET \(columns.map { "\($0) = ?" }.joined(separator: ", "))
                WHERE merchant_id = ? AND order_id = ? AND transaction_id = ? AND revision = ?
                """,
                columns.map { SQLiteValue(values[$0] ?? .null) } + [
                    .text(authentication.merchantId), .text(authentication.orderId), .text(authentication.transactionId),
                    .integer(expectedRevision),
                ]
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    private func select(_ condition: String, _ values: [SQLiteValue]) async throws -> [PayerAuthentication] {
        try await run { connection in
            try connection.rows("SELECT \(AuthenticationColumns.selectList) FROM authentications WHERE \(condition)", values)
                .map(AuthenticationColumns.authentication)
        }
    }
}
