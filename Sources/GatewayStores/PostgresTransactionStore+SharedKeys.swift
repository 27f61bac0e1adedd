import GatewayCore

/// The shared keys' check values (and sandbox mode's generated keys) in the shared database
/// (``SharedKeyStatements``): the first replica to start records each, every later one reads it
/// back.
extension PostgresTransactionStore: SharedKeyStore {
    package func claimSharedKey(_ key: SharedKey) async throws -> SharedKey {
        // One statement per step, each atomic: of replicas racing, one row is inserted and every
        // one reads that row.
        try await execute(SharedKeyStatements.claim(key))
        guard let kept = try await sharedKey(named: key.name) else {
            throw StoreUnavailable(reason: "shared key \(key.name) was not kept")
        }
        return kept
    }

    package func sharedKey(named name: String) async throws -> SharedKey? {
        try await rows(SharedKeyStatements.select(name: name)) { try SharedKeyStatements.sharedKey($0, name: name) }.first
    }
}
