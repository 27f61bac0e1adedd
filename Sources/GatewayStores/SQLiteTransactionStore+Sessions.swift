import Foundation
import GatewayCore

/// Sessions in the SQLite file: reads on the reader connection, writes on the writer's queue
/// (each its own autocommit, durable like a transaction record).
extension SQLiteTransactionStore: SessionStore {
    package func insertSession(_ session: StoredSession) async throws {
        try await writer.perform { connection in
            _ = try connection.query(
                """
                INSERT INTO sessions (session_id, merchant_id, version, update_status, authentication_limit,
                    sealed_content, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                Self.values(session)
            )
        }
    }

    package func session(id: String) async throws -> StoredSession? {
        try await run { connection in
            try connection.rows(
                """
                SELECT session_id, merchant_id, version, update_status, authentication_limit, sealed_content,
                    created_at_ms, expires_at_ms FROM sessions WHERE session_id = ?
                """,
                [.text(SessionStorageKey.of(id))]
            ).first.map { row in
                StoredSession(
                    id: id,
                    merchantId: try row.text("merchant_id"),
                    version: try row.text("version"),
                    updateStatus: try StoredColumn.decode(
                        SessionUpdateStatus.self,
                        row["update_status"].text,
                        column: "sessions.update_status"
                    ),
                    authenticationLimit: Int(try row.integer("authentication_limit")),
                    sealedContent: try row.bytes("sealed_content"),
                    createdAt: Date(milliseconds: try row.integer("created_at_ms")),
                    expiresAt: Date(milliseconds: try row.integer("expires_at_ms"))
                )
            }
        }
    }

    package func replaceSession(_ session: StoredSession, expectedVersion: String) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                """
                UPDATE sessions SET version = ?, update_status = ?, authentication_limit = ?, sealed_content = ?
                WHERE session_id = ? AND version = ?
                """,
                [
                    .text(session.version), .text(session.updateStatus.rawValue), .integer(Int64(session.authenticationLimit)),
                    .blob(session.sealedContent), .text(SessionStorageKey.of(session.id)), .text(expectedVersion),
                ]
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    package func deleteSession(id: String) async throws {
        try await writer.perform { connection in
            _ = try connection.query("DELETE FROM sessions WHERE session_id = ?", [.text(SessionStorageKey.of(id))])
        }
    }

    package func deleteSessions(expiredBefore time: Date) async throws {
        try await writer.perform { connection in
            _ = try connection.query("DELETE FROM sessions WHERE expires_at_ms < ?", [.integer(time.milliseconds)])
        }
    }

    /// Sessions stored by earlier releases under their clear id get the hashed key (once, as
    /// the store opens; sessions live an hour at most, so there are few).
    static func hashLegacySessionIds(_ connection: SQLiteConnection) throws {
        try connection.transaction {
            let rows = try connection.rows(
                "SELECT session_id FROM sessions WHERE session_id NOT LIKE ?",
                [.text(SessionStorageKey.prefix + "%")]
            )
            for row in rows {
                guard let id = row["session_id"].text else { continue }
                try connection.query(
                    "UPDATE sessions SET session_id = ? WHERE session_id = ?",
                    [.text(SessionStorageKey.of(id)), .text(id)]
                )
            }
        }
    }

    private static func values(_ session: StoredSession) -> [SQLiteValue] {
        [
            .text(SessionStorageKey.of(session.id)), .text(session.merchantId), .text(session.version), .text(session.updateStatus.rawValue),
            .integer(Int64(session.authenticationLimit)), .blob(session.sealedContent),
            .integer(session.createdAt.milliseconds), .integer(session.expiresAt.milliseconds),
        ]
    }
}
