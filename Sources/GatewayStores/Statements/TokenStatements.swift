import Foundation
import GatewayCore

/// Gateway tokens' statements, the same on SQLite and PostgreSQL (``StoreStatement``).
enum TokenStatements {
    static func insert(_ token: StoredToken) -> StoreStatement {
        StoreStatement(
            """
            INSERT INTO tokens (merchant_id, token, status, sealed_card, created_at_ms, updated_at_ms)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1
            """,
            [
                .text(token.merchantId), .text(token.token), .text(token.status.rawValue), .bytes(token.sealedCard),
                .integer(token.createdAt.milliseconds), .integer(token.updatedAt.milliseconds),
            ]
        )
    }

    static func select(merchantId: String, token: String) -> StoreStatement {
        StoreStatement(
            "SELECT status, sealed_card, created_at_ms, updated_at_ms FROM tokens WHERE merchant_id = ? AND token = ?",
            [.text(merchantId), .text(token)]
        )
    }

    static func replace(_ token: StoredToken) -> StoreStatement {
        StoreStatement(
            "UPDATE tokens SET status = ?, sealed_card = ?, updated_at_ms = ? WHERE merchant_id = ? AND token = ? RETURNING 1",
            [
                .text(token.status.rawValue), .bytes(token.sealedCard), .integer(token.updatedAt.milliseconds),
                .text(token.merchantId), .text(token.token),
            ]
        )
    }

    static func delete(merchantId: String, token: String) -> StoreStatement {
        StoreStatement("DELETE FROM tokens WHERE merchant_id = ? AND token = ? RETURNING 1", [.text(merchantId), .text(token)])
    }

    /// A row of ``select(merchantId:token:)``.
    static func token(_ row: some StoredRow, merchantId: String, token: String) throws -> StoredToken {
        StoredToken(
            token: token,
            merchantId: merchantId,
            status: try StoredColumn.decode(TokenStatus.self, try row.text("status"), column: "tokens.status"),
            sealedCard: try row.bytes("sealed_card"),
            createdAt: Date(milliseconds: try row.integer("created_at_ms")),
            updatedAt: Date(milliseconds: try row.integer("updated_at_ms"))
        )
    }
}
