import CSQLite
import Dispatch

/// The read connection of the SQLite store, on a serial queue of its own: SQLite's blocking
/// calls (a read that waits on the disk, `busy_timeout`) never hold one of the event loops that
/// serve HTTP and run Swift's tasks, and WAL lets it read beside the writer's group commits.
///
/// A queue and a continuation rather than an actor with this queue as its executor: that was
/// tried, and the two task hops it adds to every read cost a plain-card AUTHORIZE 4% of its CPU
/// time (scripts/bench-cpu-per-request, three alternating runs: 126.3/124.5/130.2 µs against
/// 122.7/118.5/125.5).
final class SQLiteReader: Sendable {
    // Used only on `queue`, never concurrently.
    nonisolated(unsafe) private let connection: SQLiteConnection
    nonisolated(unsafe) private var closed = false
    private let queue = DispatchQueue(label: "gateway.sqlite.read")

    init(path: String, vfs: String? = nil) throws {
        connection = try SQLiteConnection(path: path, vfs: vfs)
        try connection.execute("PRAGMA busy_timeout = 5000")
    }

    /// Runs `work` on the reader's queue and resumes the caller with its result; refused once
    /// the reader is closed, rather than run on a closed handle.
    func read<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                guard !self.closed else {
                    return continuation.resume(throwing: SQLiteConnection.Failure(code: SQLITE_MISUSE, message: "the store is closed"))
                }
                // A disk that fails a read is the store being unavailable, as for a write.
                continuation.resume(with: Result { try work(self.connection) }.mapError { SQLiteWriteHealth.classify($0) ?? $0 })
            }
        }
    }

    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                if !self.closed {
                    self.closed = true
                    self.connection.close()
                }
                continuation.resume()
            }
        }
    }
}
