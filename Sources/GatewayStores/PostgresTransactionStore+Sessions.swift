import Foundation
import GatewayCore

/// Sessions in the shared database (``SessionStatements``): a session created on one replica is
/// updated and paid with on any other. Each call is one statement.
extension PostgresTransactionStore: SessionStore {
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
}
