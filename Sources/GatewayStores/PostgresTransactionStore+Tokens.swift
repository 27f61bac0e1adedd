import Foundation
import GatewayCore
import PostgresNIO

/// Gateway tokens in the shared database: a token made on one replica pays on any other. Each
/// call is one statement.
extension PostgresTransactionStore: TokenStore {
    package func insertToken(_ token: StoredToken) async throws -> Bool {
        try await run { connection in
            let rows = try await connection.query(
                """
                INSERT INTO tokens (merchant_id, token, status, sealed_card, created_at_ms, updated_at_ms)
                VALUES (\(token.merchantId), \(token.token), \(token.status.rawValue), \(ByteBuffer(bytes: token.sealedCard)),
                    \(token.createdAt.milliseconds), \(token.updatedAt.milliseconds))
                ON CONFLICT DO NOTHING RETURNING 1
                """,
                logger: self.logger
            )
            var inserted = false
            for try await _ in rows { inserted = true }
            return inserted
        }
    }

    package func token(merchantId: String, token: String) async throws -> StoredToken? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT status, sealed_card, created_at_ms, updated_at_ms FROM tokens
                WHERE merchant_id = \(merchantId) AND token = \(token)
                """,
                logger: self.logger
            )
            var found: StoredToken?
            for try await row in rows {
                let columns = row.makeRandomAccess()
                found = StoredToken(
                    token: token,
                    merchantId: merchantId,
                    status: try StoredColumn.decode(TokenStatus.self, try columns["status"].decode(String.self), column: "tokens.status"),
                    sealedCard: Array(try columns["sealed_card"].decode(ByteBuffer.self).readableBytesView),
                    createdAt: Date(milliseconds: try columns["created_at_ms"].decode(Int64.self)),
                    updatedAt: Date(milliseconds: try columns["updated_at_ms"].decode(Int64.self))
                )
            }
            return found
        }
    }

    package func replaceToken(_ token: StoredToken) async throws -> Bool {
        try await run { connection in
            let rows = try await connection.query(
                """
                UPDATE tokens SET status = \(token.status.rawValue), sealed_card = \(ByteBuffer(bytes: token.sealedCard)),
                    updated_at_ms = \(token.updatedAt.milliseconds)
                WHERE merchant_id = \(token.merchantId) AND token = \(token.token)
                RETURNING 1
                """,
                logger: self.logger
            )
            var replaced = false
            for try await _ in rows { replaced = true }
            return replaced
        }
    }

    package func deleteToken(merchantId: String, token: String) async throws -> Bool {
        try await run { connection in
            let rows = try await connection.query(
                "DELETE FROM tokens WHERE merchant_id = \(merchantId) AND token = \(token) RETURNING 1",
                logger: self.logger
            )
            var deleted = false
            for try await _ in rows { deleted = true }
            return deleted
        }
    }
}
