import GatewayCore

/// Reads the core's enums back from the text columns both stores keep them in.
enum StoredColumn {
    static func decode<Value: RawRepresentable<String>>(
        _ type: Value.Type,
        _ text: String?,
        column: String
    ) throws -> Value {
        guard let text, let value = Value(rawValue: text) else {
            throw UnreadableStoredValue(column: column, value: text ?? "NULL")
        }
        return value
    }
}
