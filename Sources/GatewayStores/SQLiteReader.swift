import CSQLite

/// The read connection of the SQLite store, isolated to an executor of its own. WAL lets it read
/// beside the writer's group commits.
actor SQLiteReader {
    private let connection: SQLiteConnection
    private let executor: SQLiteExecutor
    private var closed = false

    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA busy_timeout = 5000")
        executor = SQLiteExecutor(label: "gateway.sqlite.read")
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func read<Value: Sendable>(_ work: @Sendable (SQLiteConnection) throws -> Value) throws -> Value {
        guard !closed else { throw SQLiteConnection.Failure(code: SQLITE_MISUSE, message: "the store is closed") }
        return try work(connection)
    }

    func close() {
        guard !closed else { return }
        closed = true
        connection.close()
    }
}
