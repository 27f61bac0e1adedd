import Foundation
import GatewayCore
import PostgresNIO

/// The shared keys' check values (and sandbox mode's generated keys) in the shared database:
/// the first replica to start records each, every later one reads it back.
extension PostgresTransactionStore: SharedKeyStore {
    package func claimSharedKey(_ key: SharedKey) async throws -> SharedKey {
        let secret = key.secret.map { ByteBuffer(bytes: $0) }
        return try await run { connection in
            // One statement per step, each atomic: of replicas racing, one row is inserted and
            // every one reads that row.
            try await connection.query(
                """
                INSERT INTO shared_keys (name, check_value, secret)
                VALUES (\(key.name), \(ByteBuffer(bytes: key.checkValue)), \(secret))
                ON CONFLICT (name) DO NOTHING
                """,
                logger: self.logger
            )
            guard let kept = try await self.sharedKey(connection, key.name) else {
                throw StoreUnavailable(reason: "shared key \(key.name) was not kept")
            }
            return kept
        }
    }

    package func sharedKey(named name: String) async throws -> SharedKey? {
        try await run { connection in try await self.sharedKey(connection, name) }
    }

    private func sharedKey(_ connection: PostgresConnection, _ name: String) async throws -> SharedKey? {
        let rows = try await connection.query("SELECT check_value, secret FROM shared_keys WHERE name = \(name)", logger: logger)
        var found: SharedKey?
        for try await (checkValue, secret) in rows.decode((ByteBuffer, ByteBuffer?).self) {
            found = SharedKey(
                name: name,
                checkValue: Array(checkValue.readableBytesView),
                secret: secret.map { Array($0.readableBytesView) }
            )
        }
        return found
    }
}
