import Dispatch
import GatewayCore
import Synchronization

/// Copies the write-ahead log into the database file on a connection and thread of its own.
///
/// SQLite's automatic checkpoint runs on the committing connection, right after the commit that
/// brings the log to 1,000 pages: the writer copies them and waits for the database file's fsync,
/// and every record queued behind it waits too. One AUTHORIZE record writes about ten pages, so
/// one commit in a hundred did that, and on this disk it took 5-35 ms: a record commit's p99 was
/// 4.3-4.8 ms with it and 1.1 ms without (scripts/bench-commit-latency.py --like, alternating).
/// Here the writer only signals, and a PASSIVE checkpoint never blocks the writer.
///
/// The writer starts the log again from its beginning only when a checkpoint has caught up with
/// it; a writer that never pauses (a saturated server) gives it no such moment, and the log grows
/// to `backstopFrames`, where the writer checkpoints itself as before (what is left to copy by
/// then is little, the checkpoints here having copied the rest).
final class SQLiteCheckpointer: Sendable {
    /// The log size at which a checkpoint starts, and the growth after which the next one does,
    /// as SQLite's automatic one.
    static let thresholdFrames = 1000
    /// The log size at which the writer stops waiting for this and checkpoints itself.
    static let backstopFrames = 10_000

    private struct State {
        var scheduled = false
        /// The log's size at the last commit (smaller at the next: the log was started again).
        var frames = 0
        var nextCheckpointAt = thresholdFrames
        var closed = false
        var completed = 0
        var backstops = 0
    }

    // Used only on `queue`, never concurrently.
    nonisolated(unsafe) private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "gateway.sqlite.checkpoint")
    private let state = Mutex(State())

    init(path: String, vfs: String? = nil) throws {
        connection = try SQLiteConnection(path: path, vfs: vfs)
    }

    /// The writer's commit hook: starts a checkpoint here when the log has grown enough; true
    /// asks the writer to checkpoint at once itself (the backstop).
    func logHolds(frames: Int) -> Bool {
        if frames >= Self.backstopFrames {
            state.withLock { $0.backstops += 1 }
            return true
        }
        let start = state.withLock { state in
            if frames < state.frames { state.nextCheckpointAt = Self.thresholdFrames }
            state.frames = frames
            guard frames >= state.nextCheckpointAt, !state.scheduled, !state.closed else { return false }
            // Not back to back: a checkpoint per thousand pages written, however long one takes.
            state.nextCheckpointAt = frames + Self.thresholdFrames
            state.scheduled = true
            return true
        }
        if start { queue.async { self.checkpoint() } }
        return false
    }

    /// Checkpoints run so far.
    var completedCheckpoints: Int { state.withLock { $0.completed } }

    /// Whether a checkpoint is scheduled or under way (tests pace a writer by it).
    var isCheckpointing: Bool { state.withLock { $0.scheduled } }

    /// Commits after which the writer checkpointed itself, this having fallen behind.
    var backstopCheckpoints: Int { state.withLock { $0.backstops } }

    /// No checkpoint starts after this; one under way finishes first.
    func close() async {
        state.withLock { $0.closed = true }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.connection.close()
                continuation.resume()
            }
        }
    }

    private func checkpoint() {
        // Frames still being read or written are left for the next one. Frames committed while
        // one ran are copied by another, so that the writer finds the log wholly copied and
        // starts it again from the beginning; sixteen rounds at most, a busy writer wins.
        for _ in 0..<16 where !state.withLock({ $0.closed }) {
            guard let row = try? connection.query("PRAGMA wal_checkpoint(PASSIVE)").first, row.count == 3,
                let logFrames = row[1].integer, let copiedFrames = row[2].integer, copiedFrames < logFrames
            else { break }
        }
        state.withLock { state in
            state.scheduled = false
            state.completed += 1
        }
    }
}
