import GatewayCore
import PostgresNIO

/// A PostgreSQL row read by column name as ``StoredRow`` reads: a NULL where a value must be,
/// or a value of another type, throws ``UnreadableStoredValue`` naming the column.
struct PostgresStoredRow: StoredRow {
    let columns: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        columns = row.makeRandomAccess()
    }

    func text(_ column: String) throws -> String {
        try decode(String.self, column)
    }

    func optionalText(_ column: String) throws -> String? {
        try decode(String?.self, column)
    }

    func integer(_ column: String) throws -> Int64 {
        try decode(Int64.self, column)
    }

    func optionalInteger(_ column: String) throws -> Int64? {
        try decode(Int64?.self, column)
    }

    func bool(_ column: String) throws -> Bool {
        try decode(Bool.self, column)
    }

    func bytes(_ column: String) throws -> [UInt8] {
        Array(try decode(ByteBuffer.self, column).readableBytesView)
    }

    func optionalBytes(_ column: String) throws -> [UInt8]? {
        try decode(ByteBuffer?.self, column).map { Array($0.readableBytesView) }
    }

    private func decode<Value: PostgresDecodable>(_ type: Value.Type, _ column: String) throws -> Value {
        guard columns.contains(column) else { throw UnreadableStoredValue(column: column, value: "no such column") }
        do {
            return try columns[column].decode(Value.self)
        } catch {
            throw UnreadableStoredValue(column: column, value: "a value that is not \(Value.self)")
        }
    }
}
