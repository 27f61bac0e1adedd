import Foundation
import GatewayCore

/// Sessions in the SQLite file (``SessionStatements``): reads on the reader connection, writes on
/// the writer's queue (each its own autocommit, durable like a transaction record).
extension SQLiteTransactionStore: SessionStore {
    package func insertSession(_ session: StoredSession) async throws {
        try await execute(SessionStatements.insert(session))
    }

    package func session(id: String) async throws -> StoredSession? {
        try await rows(SessionStatements.select(id: id)) { try SessionStatements.session($0, id: id) }.first
    }

    package func replaceSession(_ session: StoredSession, expectedVersion: String) async throws -> Bool {
        try await changedRow(SessionStatements.replace(session, expectedVersion: expectedVersion))
    }

    package func deleteSession(id: String) async throws {
        try await execute(SessionStatements.delete(id: id))
    }

    package func deleteSessions(expiredBefore time: Date) async throws {
        try await execute(SessionStatements.delete(expiredBefore: time))
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
}
