import Foundation
import GatewayCore
import PostgresNIO

/// Sessions in the shared database: a session created on one replica is updated and paid with
/// on any other. Each call is one statement.
extension PostgresTransactionStore: SessionStore {
    package func insertSession(_ session: StoredSession) async throws {
        try await run { connection in
            _ = try await connection.query(
                """
                INSERT INTO sessions (session_id, merchant_id, version, update_status, authentication_limit,
                    sealed_content, created_at_ms, expires_at_ms)
                VALUES (\(SessionStorageKey.of(session.id)), \(session.merchantId), \(session.version), \(session.updateStatus.rawValue),
                    \(session.authenticationLimit), \(ByteBuffer(bytes: session.sealedContent)),
                    \(session.createdAt.milliseconds), \(session.expiresAt.milliseconds))
                """,
                logger: self.logger
            )
        }
    }

    package func session(id: String) async throws -> StoredSession? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT session_id, merchant_id, version, update_status, authentication_limit, sealed_content,
                    created_at_ms, expires_at_ms FROM sessions WHERE session_id = \(SessionStorageKey.of(id))
                """,
                logger: self.logger
            )
            var found: StoredSession?
            for try await row in rows {
                let columns = row.makeRandomAccess()
                found = StoredSession(
                    id: id,
                    merchantId: try columns["merchant_id"].decode(String.self),
                    version: try columns["version"].decode(String.self),
                    updateStatus: try StoredColumn.decode(
                        SessionUpdateStatus.self,
                        try columns["update_status"].decode(String.self),
                        column: "sessions.update_status"
                    ),
                    authenticationLimit: Int(try columns["authentication_limit"].decode(Int64.self)),
                    sealedContent: Array(try columns["sealed_content"].decode(ByteBuffer.self).readableBytesView),
                    createdAt: Date(milliseconds: try columns["created_at_ms"].decode(Int64.self)),
                    expiresAt: Date(milliseconds: try columns["expires_at_ms"].decode(Int64.self))
                )
            }
            return found
        }
    }

    package func replaceSession(_ session: StoredSession, expectedVersion: String) async throws -> Bool {
        try await run { connection in
            let rows = try await connection.query(
                """
                UPDATE sessions SET version = \(session.version), update_status = \(session.updateStatus.rawValue),
                    authentication_limit = \(session.authenticationLimit),
                    sealed_content = \(ByteBuffer(bytes: session.sealedContent))
                WHERE session_id = \(SessionStorageKey.of(session.id)) AND version = \(expectedVersion)
                RETURNING 1
                """,
                logger: self.logger
            )
            var replaced = false
            for try await _ in rows { replaced = true }
            return replaced
        }
    }

    package func deleteSession(id: String) async throws {
        try await run { connection in
            _ = try await connection.query("DELETE FROM sessions WHERE session_id = \(SessionStorageKey.of(id))", logger: self.logger)
        }
    }

    package func deleteSessions(expiredBefore time: Date) async throws {
        try await run { connection in
            _ = try await connection.query(
                "DELETE FROM sessions WHERE expires_at_ms < \(time.milliseconds)",
                logger: self.logger
            )
        }
    }
}
