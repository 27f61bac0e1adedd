import Foundation
import GatewayCore

/// Gateway tokens in the SQLite file: reads on the reader connection, writes on the writer's
/// queue (each its own autocommit, durable like a transaction record).
extension SQLiteTransactionStore: TokenStore {
    package func insertToken(_ token: StoredToken) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                """
                INSERT OR IGNORE INTO tokens (merchant_id, token, status, sealed_card, created_at_ms, updated_at_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(token.merchantId), .text(token.token), .text(token.status.rawValue), .blob(token.sealedCard),
                    .integer(token.createdAt.milliseconds), .integer(token.updatedAt.milliseconds),
                ]
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    package func token(merchantId: String, token: String) async throws -> StoredToken? {
        try await run { connection in
            try connection.rows(
                """
                SELECT status, sealed_card, created_at_ms, updated_at_ms FROM tokens
                WHERE merchant_id = ? AND token = ?
                """,
                [.text(merchantId), .text(token)]
            ).first.map { row in
                StoredToken(
                    token: token,
                    merchantId: merchantId,
                    status: try StoredColumn.decode(TokenStatus.self, row["status"].text, column: "tokens.status"),
                    sealedCard: try row.bytes("sealed_card"),
                    createdAt: Date(milliseconds: try row.integer("created_at_ms")),
                    updatedAt: Date(milliseconds: try row.integer("updated_at_ms"))
                )
            }
        }
    }

    package func replaceToken(_ token: StoredToken) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                "UPDATE tokens SET status = ?, sealed_card = ?, updated_at_ms = ? WHERE merchant_id = ? AND token = ?",
                [
                    .text(token.status.rawValue), .blob(token.sealedCard), .integer(token.updatedAt.milliseconds),
                    .text(token.merchantId), .text(token.token),
                ]
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    package func deleteToken(merchantId: String, token: String) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query("DELETE FROM tokens WHERE merchant_id = ? AND token = ?", [.text(merchantId), .text(token)])
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }
}
