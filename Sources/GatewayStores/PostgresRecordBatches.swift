import GatewayCore
import Synchronization

/// A replica's transaction records on their way to PostgreSQL: while `maximumWriting` batches are
/// in flight, the records that arrive wait and go together in the next one, sharing its round
/// trip and its commit. A record that finds a batch free goes at once, alone: under light load
/// nothing waits. Each batch is written by the task of its first record (its leader); when it
/// ends, the leader answers the records that went with it and hands the turn to the first record
/// still waiting, whose task writes the next batch.
///
/// Every record keeps its own deadline (`timeout` from when it arrived), as a single write did: a
/// batch must end by its members' earliest deadline, and a record whose deadline passed while it
/// waited is answered unavailable instead of joining one. The batch's write runs in a task of its
/// own, so a leader's cancellation never fails the records that went with it.
///
/// One commit per record cost PostgreSQL as much again as the records' own work (commit, protocol,
/// transaction start), and the replica a round trip and two wake-ups per record.
final class PostgresRecordBatches: Sendable {
    /// Writes a batch by `deadline`, answering each record in the batch's order.
    typealias Write = @Sendable ([TransactionRecord], [RequestStages?], ContinuousClock.Instant) async -> [Result<RecordOutcome, any Error>]

    private enum Turn {
        case lead
        case answered(Result<RecordOutcome, any Error>)
    }

    private struct Waiting {
        let record: TransactionRecord
        let stages: RequestStages?
        let deadline: ContinuousClock.Instant
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

    /// The batch that holds `record` may be written by another record's task, with that
    /// record's `write`.
    func record(_ record: TransactionRecord, stages: RequestStages?, timeout: Duration, write: @escaping Write) async throws -> RecordOutcome {
        let deadline = ContinuousClock.now + timeout
        let turn = await withCheckedContinuation { continuation in
            let leadsNow = state.withLock { state in
                guard state.writing < maximumWriting else {
                    state.waiting.append(Waiting(record: record, stages: stages, deadline: deadline, continuation: continuation))
                    return false
                }
                state.writing += 1
                return true
            }
            if leadsNow { continuation.resume(returning: Turn.lead) }
        }
        switch turn {
        case .answered(let result): return try result.get()
        case .lead: return try await lead(record, stages, deadline, write).get()
        }
    }

    /// Writes `record` with the records waiting behind it, answers them, and passes the turn on.
    private func lead(
        _ record: TransactionRecord,
        _ stages: RequestStages?,
        _ deadline: ContinuousClock.Instant,
        _ write: @escaping Write
    ) async -> Result<RecordOutcome, any Error> {
        let now = ContinuousClock.now
        guard deadline > now else {
            handOn()
            return .failure(Self.waitedTooLong)
        }
        let taken = state.withLock { state in
            let taken = Array(state.waiting.prefix(maximumBatch - 1))
            state.waiting.removeFirst(taken.count)
            return taken
        }
        let followers = taken.filter { $0.deadline > now }
        for late in taken where late.deadline <= now { late.continuation.resume(returning: .answered(.failure(Self.waitedTooLong))) }
        let records = [record] + followers.map(\.record)
        let allStages = [stages] + followers.map(\.stages)
        let batchDeadline = followers.map(\.deadline).reduce(deadline, min)
        var results = await Task { await write(records, allStages, batchDeadline) }.value
        if results.count != records.count {
            let unanswered = UnreadableStoredValue(column: "gateway_record batch", value: "\(results.count) outcomes")
            results = Array(repeating: .failure(unanswered), count: records.count)
        }
        for (follower, result) in zip(followers, results.dropFirst()) {
            follower.continuation.resume(returning: .answered(result))
        }
        handOn()
        return results[0]
    }

    /// The first record still waiting writes the next batch; with none, one fewer is in flight.
    private func handOn() {
        let next = state.withLock { state -> Waiting? in
            guard !state.waiting.isEmpty else {
                state.writing -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
    }

    private static let waitedTooLong = StoreUnavailable(reason: "the write waited for a batch past store.timeoutSeconds")
}
