import Foundation
import GatewayCore

/// The shared keys' check values (and sandbox mode's generated keys) in the SQLite file: one
/// process writes it, but a file moved beside other key files is caught as a replica would be.
extension SQLiteTransactionStore: SharedKeyStore {
    package func claimSharedKey(_ key: SharedKey) async throws -> SharedKey {
        try await writer.perform { connection in
            try connection.query(
                "INSERT OR IGNORE INTO shared_keys (name, check_value, secret) VALUES (?, ?, ?)",
                [.text(key.name), .blob(key.checkValue), key.secret.map(SQLiteValue.blob) ?? .null]
            )
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
        try connection.rows("SELECT check_value, secret FROM shared_keys WHERE name = ?", [.text(name)]).first.map { row in
            SharedKey(
                name: name,
                checkValue: try row.bytes("check_value"),
                secret: row["secret"] == .null ? nil : try row.bytes("secret")
            )
        }
    }
}
