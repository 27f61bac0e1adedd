import Dispatch
import Synchronization

/// Writes transaction records in group commits: every record that arrives while a commit is on
/// its way to disk waits for the next one, and the whole batch shares one transaction and one
/// fsync. Each record runs inside its own SAVEPOINT, so a record that loses a race (a duplicate
/// transaction id, a replayed Apple Pay token) is undone alone and answered with its outcome.
final class SQLiteGroupCommit: Sendable {
    private typealias Waiter = (record: TransactionRecord, continuation: CheckedContinuation<RecordOutcome, any Error>)

    private struct State {
        var pending: [Waiter] = []
        var committing = false
    }

    // Used only on `queue`, never concurrently.
    nonisolated(unsafe) private let connection: SQLiteConnection
    private let queue = DispatchQueue(label: "gateway.sqlite.write")
    private let state = Mutex(State())
    /// Bounds a batch, so one commit never holds the write lock for long.
    private let maximumBatch = 256

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    func submit(_ record: TransactionRecord) async throws -> RecordOutcome {
        try await withCheckedThrowingContinuation { continuation in
            let startCommitter = state.withLock { state in
                state.pending.append((record, continuation))
                guard !state.committing else { return false }
                state.committing = true
                return true
            }
            if startCommitter { queue.async { self.commitUntilIdle() } }
        }
    }

    private func commitUntilIdle() {
        while true {
            let batch: [Waiter] = state.withLock { state in
                let batch = Array(state.pending.prefix(maximumBatch))
                state.pending.removeFirst(batch.count)
                if batch.isEmpty { state.committing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            commit(batch)
        }
    }

    private func commit(_ batch: [Waiter]) {
        do {
            let outcomes = try connection.transaction {
                batch.map { waiter in self.writeInSavepoint(waiter.record) }
            }
            for (waiter, outcome) in zip(batch, outcomes) { waiter.continuation.resume(with: outcome) }
        } catch {
            for waiter in batch { waiter.continuation.resume(throwing: error) }
        }
    }

    /// One record's writes, undone alone when they conflict or fail.
    private func writeInSavepoint(_ record: TransactionRecord) -> Result<RecordOutcome, any Error> {
        Result {
            try connection.execute("SAVEPOINT record")
            do {
                let outcome = try SQLiteRecordWriter.write(record, connection)
                if outcome != .recorded { try connection.execute("ROLLBACK TO record") }
                try connection.execute("RELEASE record")
                return outcome
            } catch {
                try? connection.execute("ROLLBACK TO record")
                try? connection.execute("RELEASE record")
                throw error
            }
        }
    }
}
