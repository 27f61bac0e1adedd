import GatewayCore
import Synchronization

/// A replica's transaction records on their way to PostgreSQL: while `maximumWriting` batches are
/// in flight, the records that arrive wait and go together in the next one, sharing its round
/// trip and its commit. A record that finds a batch free goes at once, alone: under light load
/// nothing waits. Each batch is written by the task of its first record (its leader), within that
/// task's deadline; when it ends, the leader answers the records that went with it and hands the
/// turn to the first record still waiting, whose task writes the next batch.
///
/// One commit per record cost PostgreSQL as much again as the records' own work (commit, protocol,
/// transaction start), and the replica a round trip and two wake-ups per record.
final class PostgresRecordBatches: Sendable {
    typealias Write = @Sendable ([TransactionRecord], [RequestStages?]) async -> [Result<RecordOutcome, any Error>]

    private enum Turn {
        case lead
        case answered(Result<RecordOutcome, any Error>)
    }

    private struct Waiting {
        let record: TransactionRecord
        let stages: RequestStages?
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var waiting: [Waiting] = []
        var writing = 0
    }

    private let state = Mutex(State())
    private let maximumWriting: Int
    private let maximumBatch: Int

    /// How many records wait for a batch now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    init(maximumWriting: Int, maximumBatch: Int) {
        self.maximumWriting = max(1, maximumWriting)
        self.maximumBatch = max(1, maximumBatch)
    }

    /// `write` answers each record of a batch, in the batch's order; the batch that holds
    /// `record` may be written by another record's task, with that record's `write`.
    func record(_ record: TransactionRecord, stages: RequestStages?, write: Write) async throws -> RecordOutcome {
        let turn = await withCheckedContinuation { continuation in
            let leadsNow = state.withLock { state in
                guard state.writing < maximumWriting else {
                    state.waiting.append(Waiting(record: record, stages: stages, continuation: continuation))
                    return false
                }
                state.writing += 1
                return true
            }
            if leadsNow { continuation.resume(returning: Turn.lead) }
        }
        switch turn {
        case .answered(let result): return try result.get()
        case .lead: return try await lead(record, stages, write).get()
        }
    }

    /// Writes `record` with the records waiting behind it, answers them, and passes the turn on.
    private func lead(_ record: TransactionRecord, _ stages: RequestStages?, _ write: Write) async -> Result<RecordOutcome, any Error> {
        let followers = state.withLock { state in
            let taken = Array(state.waiting.prefix(maximumBatch - 1))
            state.waiting.removeFirst(taken.count)
            return taken
        }
        var results = await write([record] + followers.map(\.record), [stages] + followers.map(\.stages))
        if results.count != followers.count + 1 {
            let unanswered = UnreadableStoredValue(column: "gateway_record batch", value: "\(results.count) outcomes")
            results = Array(repeating: .failure(unanswered), count: followers.count + 1)
        }
        for (follower, result) in zip(followers, results.dropFirst()) {
            follower.continuation.resume(returning: .answered(result))
        }
        let next = state.withLock { state -> Waiting? in
            guard !state.waiting.isEmpty else {
                state.writing -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return results[0]
    }
}
