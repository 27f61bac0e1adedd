import GatewayCore
import PostgresNIO

/// Payer authentications in the shared database: one started on one replica is completed, and
/// paid with, on any other. Each call is one statement.
extension PostgresTransactionStore: AuthenticationStore {
    package func authentication(merchantId: String, orderId: String, transactionId: String) async throws -> PayerAuthentication? {
        try await select(
            "merchant_id = $1 AND order_id = $2 AND transaction_id = $3",
            [.text(merchantId), .text(orderId), .text(transactionId)]
        ).first
    }

    package func authentication(challengeId: String) async throws -> PayerAuthentication? {
        try await select("challenge_id = $1", [.text(challengeId)]).first
    }

    package func authentications(merchantId: String, orderId: String) async throws -> [PayerAuthentication] {
        try await select("merchant_id = $1 AND order_id = $2 ORDER BY created_at_ms, transaction_id", [.text(merchantId), .text(orderId)])
    }

    package func insertAuthentication(_ authentication: PayerAuthentication) async throws -> Bool {
        let values = AuthenticationColumns.values(authentication)
        let names = AuthenticationColumns.names
        let sql = """
            INSERT INTO authentications (\(names.joined(separator: ", ")))
            VALUES (\((1...names.count).map { "$\($0)" }.joined(separator: ", ")))
            ON CONFLICT (merchant_id, order_id, transaction_id) DO NOTHING RETURNING 1
            """
        return try await changesRow(sql, names.map { values[$0] ?? .null })
    }

    package func replaceAuthentication(_ authentication: PayerAuthentication, expectedRevision: Int64) async throws -> Bool {
        let values = AuthenticationColumns.values(authentication)
        let columns = AuthenticationColumns.updatable
        let count = columns.count
        let sql = """
            UPDATE authentications SET \(columns.enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", "))
            WHERE merchant_id = $\(count + 1) AND order_id = $\(count + 2) AND transaction_id = $\(count + 3)
                AND revision = $\(count + 4)
            RETURNING 1
            """
        return try await changesRow(
            sql,
            columns.map { values[$0] ?? .null } + [
                .text(authentication.merchantId), .text(authentication.orderId), .text(authentication.transactionId),
                .integer(expectedRevision),
            ]
        )
    }

    private func changesRow(_ sql: String, _ values: [StoredValue]) async throws -> Bool {
        let query = PostgresQuery(unsafeSQL: sql, binds: Self.bindings(values))
        return try await run { connection in
            var changed = false
            for try await _ in try await connection.query(query, logger: self.logger) { changed = true }
            return changed
        }
    }

    private func select(_ condition: String, _ values: [StoredValue]) async throws -> [PayerAuthentication] {
        let query = PostgresQuery(
            unsafeSQL: "SELECT \(AuthenticationColumns.selectList) FROM authentications WHERE \(condition)",
            binds: Self.bindings(values)
        )
        return try await run { connection in
            var found: [PayerAuthentication] = []
            for try await row in try await connection.query(query, logger: self.logger) {
                found.append(try AuthenticationColumns.authentication(PostgresStoredRow(row)))
            }
            return found
        }
    }

    private static func bindings(_ values: [StoredValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let integer): bindings.append(integer)
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }
}
