import GatewayCore

/// The shared keys' check values (and sandbox mode's generated keys) in the SQLite file
/// (``SharedKeyStatements``): one process writes it, but a file moved beside other key files is
/// caught as a replica would be.
extension SQLiteTransactionStore: SharedKeyStore {
    package func claimSharedKey(_ key: SharedKey) async throws -> SharedKey {
        try await writer.perform { connection in
            _ = try connection.rows(SharedKeyStatements.claim(key))
            guard let kept = try Self.sharedKey(connection, key.name) else {
                throw SQLiteConnection.Failure(code: 0, message: "shared key \(key.name) was not kept")
            }
            return kept
        }
    }

    package func sharedKey(named name: String) async throws -> SharedKey? {
        try await writer.perform { connection in try Self.sharedKey(connection, name) }
    }

    private static func sharedKey(_ connection: SQLiteConnection, _ name: String) throws -> SharedKey? {
        try connection.rows(SharedKeyStatements.select(name: name)).first.map { try SharedKeyStatements.sharedKey($0, name: name) }
    }
}
