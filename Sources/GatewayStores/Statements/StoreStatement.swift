import PostgresNIO

/// One statement both stores run, written once: SQL that SQLite and PostgreSQL read alike, with
/// `?` for each value (PostgreSQL is given `$1`, `$2`, ... in their place), and its values. A
/// write that reports whether it changed a row ends `RETURNING 1` (SQLite 3.35 and later, as
/// PostgreSQL), so both stores count rows the same way. A statement that uses a value twice
/// numbers its placeholders instead, `?1`, `?2`, ... (SQLite reads them so, PostgreSQL is given
/// `$1`, `$2`, ...), and then numbers every one.
struct StoreStatement: Sendable {
    let sql: String
    let values: [StoredValue]

    init(_ sql: String, _ values: [StoredValue] = []) {
        self.sql = sql
        self.values = values
    }

    /// The SQL with numbered placeholders: the statements hold no `?` but their placeholders.
    /// Read as UTF-8 bytes (a `?` is never part of another character): walked as `Character`s it
    /// cost 23 µs for the 614 bytes of the authentication insert, on every PostgreSQL query.
    var postgresSQL: String {
        let question = UInt8(ascii: "?")
        var numbered: [UInt8] = []
        numbered.reserveCapacity(sql.utf8.count + values.count * 3)
        var next = 1
        var bytes = sql.utf8.makeIterator()
        var lookahead = bytes.next()
        while let byte = lookahead {
            lookahead = bytes.next()
            guard byte == question else {
                numbered.append(byte)
                continue
            }
            numbered.append(UInt8(ascii: "$"))
            // Already numbered (`?1`): its digits follow.
            if let digit = lookahead, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { continue }
            numbered.append(contentsOf: String(next).utf8)
            next += 1
        }
        return String(decoding: numbered, as: UTF8.self)
    }

    var postgresQuery: PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let integer): bindings.append(integer)
            case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        return PostgresQuery(unsafeSQL: postgresSQL, binds: bindings)
    }

    /// The placeholders, `?, ?, ...`, for `count` values.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension SQLiteConnection {
    /// The statement's rows, read by name.
    func rows(_ statement: StoreStatement) throws -> [SQLiteRow] {
        try rows(statement.sql, statement.values.map(SQLiteValue.init))
    }
}

extension PostgresTransactionStore {
    /// The statement's rows, each decoded as it arrives.
    func rows<Value: Sendable>(
        _ statement: StoreStatement,
        _ decode: @escaping @Sendable (PostgresStoredRow) throws -> Value
    ) async throws -> [Value] {
        let query = statement.postgresQuery
        return try await run { connection in
            var found: [Value] = []
            for try await row in try await connection.query(query, logger: self.logger) {
                found.append(try decode(PostgresStoredRow(row)))
            }
            return found
        }
    }

    /// Whether a write that ends `RETURNING 1` changed a row.
    func changedRow(_ statement: StoreStatement) async throws -> Bool {
        try await !rows(statement) { _ in () }.isEmpty
    }

    /// Runs a write whose rows nobody counts.
    func execute(_ statement: StoreStatement) async throws {
        _ = try await rows(statement) { _ in () }
    }
}

extension SQLiteTransactionStore {
    /// Whether a write that ends `RETURNING 1` changed a row, on the writer's queue.
    func changedRow(_ statement: StoreStatement) async throws -> Bool {
        try await writer.perform { connection in try !connection.rows(statement).isEmpty }
    }

    /// Runs a write whose rows nobody counts, on the writer's queue.
    func execute(_ statement: StoreStatement) async throws {
        try await writer.perform { connection in _ = try connection.rows(statement) }
    }

    /// The statement's rows read on the writer's queue, after every write queued before it: a row
    /// written a moment ago is found.
    func rowsAfterWrites<Value: Sendable>(
        _ statement: StoreStatement,
        _ decode: @escaping @Sendable (SQLiteRow) throws -> Value
    ) async throws -> [Value] {
        try await writer.perform { connection in try connection.rows(statement).map(decode) }
    }

    /// The statement's rows on the reader connection, each decoded.
    func rows<Value: Sendable>(
        _ statement: StoreStatement,
        _ decode: @escaping @Sendable (SQLiteRow) throws -> Value
    ) async throws -> [Value] {
        try await run { connection in try connection.rows(statement).map(decode) }
    }
}
