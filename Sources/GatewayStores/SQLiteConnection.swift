import CSQLite
import CSQLiteWALBuffer
import Foundation
import GatewayCore

/// SQL run on every write, prepared once per connection and found by identity: finding a
/// statement by its text hashes and compares the whole text, and a transaction's INSERT names 46
/// columns (a tenth of a plain-card AUTHORIZE's store time went to that).
final class FrequentSQL: Sendable {
    let text: String

    init(_ text: String) { self.text = text }
}

/// A thin layer over the SQLite C API: one connection, prepared statements, typed errors.
/// Not thread-safe by itself; ``SQLiteTransactionStore`` serializes access.
final class SQLiteConnection {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        var description: String { "SQLite error \(code): \(message)" }
        var isConstraintViolation: Bool { code & 0xFF == SQLITE_CONSTRAINT }
    }

    /// A compiled statement, and its result columns by name once a caller has asked for them.
    private final class Prepared {
        let statement: OpaquePointer
        var columns: [String: Int]?

        init(statement: OpaquePointer) { self.statement = statement }
    }

    private let handle: OpaquePointer
    /// Prepared statements by SQL text: the gateway runs the same few statements over and over.
    private var statements: [String: Prepared] = [:]
    /// The same statements, for ``FrequentSQL``, by identity.
    private var frequent: [ObjectIdentifier: Prepared] = [:]
    private var isClosed = false
    /// The SQL of each prepared statement run, in order, while a test collects them (nil: not collected).
    var statementLog: [String]?
    /// Kept for as long as SQLite may call it.
    private var walHook: WALHook?
    /// The bytes of the text and blob values bound to the running statement, which SQLite reads
    /// in place until `run` clears the bindings. A transient binding had SQLite copy each value
    /// into an allocation of its own: a malloc and a free per value, about 40 per record.
    private var bindingBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)

    /// - Parameter vfs: the name of the SQLite VFS to open the file with; nil for the default
    ///   (the write-ahead-log buffer over the system's). Tests name one that injects faults.
    init(path: String, vfs: String? = nil) throws {
        Self.configureSQLite
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, vfs)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw Failure(code: status, message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        close()
        bindingBytes.deallocate()
    }

    /// Once per process, before the first connection initializes SQLite: every allocation and
    /// free SQLite makes took a process-wide mutex to count bytes for statistics nobody reads,
    /// about 2 µs of a plain-card AUTHORIZE's write.
    private static let configureSQLite: Void = {
        _ = gateway_sqlite3_disable_memory_statistics()
        // Each commit's log frames in one write rather than two per page (CSQLiteWALBuffer).
        _ = gateway_wal_buffer_register()
    }()

    /// Finalizes the statements and closes the database; every later call fails with SQLITE_MISUSE.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for prepared in statements.values { sqlite3_finalize(prepared.statement) }
        statements = [:]
        frequent = [:]
        sqlite3_close_v2(handle)
    }

    /// Runs SQL text as it is, any number of statements, compiling it anew (migrations, pragmas).
    func execute(_ sql: String) throws {
        guard !isClosed else { throw Self.closedFailure }
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure(status) }
    }

    /// Runs one statement that returns no rows (BEGIN, COMMIT, SAVEPOINT, ...), compiled once:
    /// every group commit runs several, and compiling each again cost more than running it.
    func run(_ sql: String) throws {
        try query(sql)
    }

    /// Calls `hook` after each commit with the number of frames in the write-ahead log, on the
    /// committing thread; when it answers true, this connection checkpoints at once (PASSIVE).
    /// Replaces SQLite's automatic checkpoint, which is such a hook.
    func onCommit(walFrames hook: @escaping (Int) -> Bool) {
        let box = WALHook(hook)
        walHook = box
        sqlite3_wal_hook(
            handle,
            { context, database, name, frames in
                guard let context else { return SQLITE_OK }
                if Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue().body(Int(frames)) {
                    sqlite3_wal_checkpoint_v2(database, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
                return SQLITE_OK
            },
            Unmanaged.passUnretained(box).toOpaque()
        )
    }

    private final class WALHook {
        let body: (Int) -> Bool
        init(_ body: @escaping (Int) -> Bool) { self.body = body }
    }

    /// The database file's full path.
    var path: String { String(cString: sqlite3_db_filename(handle, "main")) }

    /// Rows the last INSERT, UPDATE or DELETE changed: 0 when its conflict clause did nothing.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs a statement with bound values, returning each row's columns.
    @discardableResult
    func query(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try run(try prepared(sql).statement, sql, values)
    }

    /// Like ``query(_:_:)``, finding the prepared statement without hashing its text.
    @discardableResult
    func query(_ sql: FrequentSQL, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        guard !isClosed else { throw Self.closedFailure }
        let key = ObjectIdentifier(sql)
        if let prepared = frequent[key] { return try run(prepared.statement, sql.text, values) }
        let prepared = try prepared(sql.text)
        frequent[key] = prepared
        return try run(prepared.statement, sql.text, values)
    }

    private func run(_ statement: OpaquePointer, _ sql: String, _ values: [SQLiteValue]) throws -> [[SQLiteValue]] {
        statementLog?.append(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(values, to: statement)
        var status = SQLITE_OK
        var rows: [[SQLiteValue]] = []
        while true {
            status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    /// Binds `values` in order, text and blobs from copies in `bindingBytes` that SQLite does not
    /// copy again (static). The copies stay put until `run` clears the bindings: the buffer only
    /// grows here, before the first copy.
    private func bind(_ values: [SQLiteValue], to statement: OpaquePointer) throws {
        let needed = values.reduce(0) { total, value in
            switch value {
            case .text(let text): total + text.utf8.count
            case .blob(let bytes): total + bytes.count
            case .null, .integer: total
            }
        }
        if needed > bindingBytes.count {
            bindingBytes.deallocate()
            bindingBytes = .allocate(byteCount: max(needed, bindingBytes.count * 2), alignment: 16)
        }
        // Never nil, even for an empty value: a nil pointer binds NULL, and "" is not NULL.
        let base = bindingBytes.baseAddress!
        var used = 0
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            // A nil destructor is SQLITE_STATIC: SQLite reads the bytes where they are.
            case .text(var text):
                let start = base + used
                let count = text.withUTF8 { Self.copy(UnsafeRawBufferPointer($0), to: start) }
                status = sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), Int32(count), nil)
                used += count
            case .blob(let bytes):
                let start = base + used
                let count = bytes.withUnsafeBytes { Self.copy($0, to: start) }
                status = sqlite3_bind_blob(statement, index, start, Int32(count), nil)
                used += count
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
    }

    /// Copies `bytes` to `destination`; returns how many.
    private static func copy(_ bytes: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer) -> Int {
        if let source = bytes.baseAddress { destination.copyMemory(from: source, byteCount: bytes.count) }
        return bytes.count
    }

    /// Like ``query(_:_:)``, with each row's columns read by name. The statement is looked up
    /// once: its text is hashed once per call, whatever its length.
    func rows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
        let prepared = try prepared(sql)
        let names = prepared.columns ?? Self.columns(of: prepared)
        return try run(prepared.statement, sql, values).map { SQLiteRow(columns: names, values: $0) }
    }

    /// A statement's result columns by name, read from SQLite once per statement.
    private static func columns(of prepared: Prepared) -> [String: Int] {
        let names = Dictionary(
            uniqueKeysWithValues: (0..<sqlite3_column_count(prepared.statement)).map {
                (String(cString: sqlite3_column_name(prepared.statement, $0)), Int($0))
            }
        )
        prepared.columns = names
        return names
    }

    private func prepared(_ sql: String) throws -> Prepared {
        guard !isClosed else { throw Self.closedFailure }
        if let prepared = statements[sql] { return prepared }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        let prepared = Prepared(statement: statement)
        statements[sql] = prepared
        return prepared
    }

    /// Runs `body` inside BEGIN IMMEDIATE ... COMMIT, rolling back if it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let pointer = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    private static let closedFailure = Failure(code: SQLITE_MISUSE, message: "the connection is closed")

    private func failure(_ status: Int32) -> Failure {
        Failure(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

extension SQLiteValue {
    init(_ text: String?) { self = text.map(SQLiteValue.text) ?? .null }

    init(_ value: StoredValue) {
        switch value {
        case .text(let text): self = .text(text)
        case .integer(let integer): self = .integer(integer)
        case .bytes(let bytes): self = .blob(bytes)
        case .null: self = .null
        }
    }
}

/// A result row whose columns are read by name, so a change to the select list cannot shift them,
/// and as the type the column must hold: a NULL or a value of another type (a row written by
/// something else) throws ``UnreadableStoredValue`` instead of reading as 0 or "".
struct SQLiteRow: StoredRow {
    let columns: [String: Int]
    let values: [SQLiteValue]

    subscript(_ name: String) -> SQLiteValue {
        guard let index = columns[name] else { return .null }
        return values[index]
    }

    func integer(_ name: String) throws -> Int64 {
        guard case .integer(let value) = self[name] else { throw unreadable(name, "an integer") }
        return value
    }

    func text(_ name: String) throws -> String {
        guard case .text(let value) = self[name] else { throw unreadable(name, "text") }
        return value
    }

    /// Text, or NULL for a column that may be empty.
    func optionalText(_ name: String) throws -> String? {
        switch self[name] {
        case .null: nil
        case .text(let value): value
        default: throw unreadable(name, "text or NULL")
        }
    }

    /// An integer, or NULL for a column that may be empty.
    func optionalInteger(_ name: String) throws -> Int64? {
        switch self[name] {
        case .null: nil
        case .integer(let value): value
        default: throw unreadable(name, "an integer or NULL")
        }
    }

    func bytes(_ name: String) throws -> [UInt8] {
        guard case .blob(let value) = self[name] else { throw unreadable(name, "bytes") }
        return value
    }

    /// Bytes, or NULL for a column that may be empty.
    func optionalBytes(_ name: String) throws -> [UInt8]? {
        switch self[name] {
        case .null: nil
        case .blob(let value): value
        default: throw unreadable(name, "bytes or NULL")
        }
    }

    /// SQLite's boolean: the integer 0 or 1.
    func bool(_ name: String) throws -> Bool {
        switch self[name] {
        case .integer(0): false
        case .integer(1): true
        default: throw unreadable(name, "0 or 1")
        }
    }

    private func unreadable(_ name: String, _ expected: String) -> UnreadableStoredValue {
        let found: String
        switch self[name] {
        case .null: found = columns[name] == nil ? "no such column" : "NULL"
        case .integer(let value): found = "\(value)"
        case .text(let value): found = value
        case .blob(let bytes): found = "\(bytes.count) bytes"
        }
        return UnreadableStoredValue(column: name, value: "\(found.prefix(40)) (expected \(expected))")
    }
}
