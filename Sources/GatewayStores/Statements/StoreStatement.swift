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
    var postgresSQL: String {
        var numbered = ""
        numbered.reserveCapacity(sql.utf8.count + values.count * 2)
        var next = 1
        var characters = sql.makeIterator()
        var lookahead = characters.next()
        while let character = lookahead {
            lookahead = characters.next()
            if character != "?" {
                numbered.append(character)
            } else if lookahead?.isASCII == true, lookahead?.isNumber == true {
                numbered += "$"  // already numbered: its digits follow
            } else {
                numbered += "$\(next)"
                next += 1
            }
        }
        return numbered
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
