import GatewayCore

/// The shared keys' statements, the same on SQLite and PostgreSQL (``StoreStatement``).
enum SharedKeyStatements {
    /// Records the key unless one of its name is already kept: of replicas racing, one row wins.
    static func claim(_ key: SharedKey) -> StoreStatement {
        StoreStatement(
            "INSERT INTO shared_keys (name, check_value, secret) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
            [.text(key.name), .bytes(key.checkValue), key.secret.map(StoredValue.bytes) ?? .null]
        )
    }

    static func select(name: String) -> StoreStatement {
        StoreStatement("SELECT check_value, secret FROM shared_keys WHERE name = ?", [.text(name)])
    }

    /// A row of ``select(name:)``.
    static func sharedKey(_ row: some StoredRow, name: String) throws -> SharedKey {
        SharedKey(name: name, checkValue: try row.bytes("check_value"), secret: try row.optionalBytes("secret"))
    }
}
