import Foundation
import GatewayCore

/// Sessions' statements (the Mobile SDK flow), the same on SQLite and PostgreSQL
/// (``StoreStatement``). Rows are keyed by ``SessionStorageKey``, never by the payer's id.
enum SessionStatements {
    static func insert(_ session: StoredSession) -> StoreStatement {
        StoreStatement(
            """
            INSERT INTO sessions (session_id, merchant_id, version, update_status, authentication_limit,
                sealed_content, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(SessionStorageKey.of(session.id)), .text(session.merchantId), .text(session.version),
                .text(session.updateStatus.rawValue), .integer(Int64(session.authenticationLimit)), .bytes(session.sealedContent),
                .integer(session.createdAt.milliseconds), .integer(session.expiresAt.milliseconds),
            ]
        )
    }

    static func select(id: String) -> StoreStatement {
        StoreStatement(
            """
            SELECT merchant_id, version, update_status, authentication_limit, sealed_content, created_at_ms, expires_at_ms
            FROM sessions WHERE session_id = ?
            """,
            [.text(SessionStorageKey.of(id))]
        )
    }

    /// The session, written only over the version it was read at.
    static func replace(_ session: StoredSession, expectedVersion: String) -> StoreStatement {
        StoreStatement(
            """
            UPDATE sessions SET version = ?, update_status = ?, authentication_limit = ?, sealed_content = ?
            WHERE session_id = ? AND version = ? RETURNING 1
            """,
            [
                .text(session.version), .text(session.updateStatus.rawValue), .integer(Int64(session.authenticationLimit)),
                .bytes(session.sealedContent), .text(SessionStorageKey.of(session.id)), .text(expectedVersion),
            ]
        )
    }

    static func delete(id: String) -> StoreStatement {
        StoreStatement("DELETE FROM sessions WHERE session_id = ?", [.text(SessionStorageKey.of(id))])
    }

    static func delete(expiredBefore time: Date) -> StoreStatement {
        StoreStatement("DELETE FROM sessions WHERE expires_at_ms < ?", [.integer(time.milliseconds)])
    }

    /// A row of ``select(id:)``.
    static func session(_ row: some StoredRow, id: String) throws -> StoredSession {
        StoredSession(
            id: id,
            merchantId: try row.text("merchant_id"),
            version: try row.text("version"),
            updateStatus: try StoredColumn.decode(SessionUpdateStatus.self, try row.text("update_status"), column: "sessions.update_status"),
            authenticationLimit: Int(try row.integer("authentication_limit")),
            sealedContent: try row.bytes("sealed_content"),
            createdAt: Date(milliseconds: try row.integer("created_at_ms")),
            expiresAt: Date(milliseconds: try row.integer("expires_at_ms"))
        )
    }
}
