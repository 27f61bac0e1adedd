import CSQLite
import Dispatch
import Foundation
import GatewayCore
import NIOCore
import Synchronization

/// Writes transaction records in group commits: every record that arrives while a commit is on
/// its way to disk waits for the next one, and the whole batch shares one transaction and one
/// fsync. A record that loses a race (to an order's other transaction, or to a replayed Apple
/// Pay token) or fails is undone alone and answered with its outcome: the batch that holds one
/// is written again with each record inside its own SAVEPOINT.
///
/// A commit starts only once an event loop has run the work already queued on it: the requests
/// that arrived together are decided first and commit together. Started at once, on a server
/// with one core, the writer thread took the core from the loop after each fsync and committed
/// the one or two requests decided meanwhile: 1.6 token AUTHORIZEs per fdatasync, 14.6 page
/// writes and 4 context switches per request (perf stat).
///
/// The writer connection commits with `synchronous = FULL` from its opening to its close: nothing
/// ever sets it otherwise. The writes that need no fsync of their own go through a second
/// connection opened with `synchronous = NORMAL`, on the same queue (SQLite still sees one writer
/// at a time). Switching one connection back and forth left it committing records unsynced
/// whenever the switch back failed.
final class SQLiteGroupCommit: Sendable {
    /// A record waiting for its commit. A class, so the batch's loops pass a reference around
    /// rather than copy the whole record (about a hundred retains a copy) at every step.
    private final class Waiter: Sendable {
        let record: TransactionRecord
        let continuation: CheckedContinuation<RecordOutcome, any Error>
        let stages: RequestStages?

        init(_ record: TransactionRecord, _ continuation: CheckedContinuation<RecordOutcome, any Error>, _ stages: RequestStages?) {
            self.record = record
            self.continuation = continuation
            self.stages = stages
        }
    }

    private struct State {
        var pending: [Waiter] = []
        var committing = false
        /// Record time of the last pruning of old replay records.
        var lastPrune: Int64?
        var closed = false
        /// `close()`, waiting for the commit under way to end.
        var closing: CheckedContinuation<Void, Never>?
    }

    // Used only on `queue`, never concurrently.
    nonisolated(unsafe) private let connection: SQLiteConnection
    nonisolated(unsafe) private let unsyncedConnection: SQLiteConnection
    private let queue = DispatchQueue(label: "gateway.sqlite.write")
    private let state = Mutex(State())
    /// Bounds a batch, so one commit never holds the write lock for long.
    private let maximumBatch = 256
    /// How long used Apple Pay transaction ids are kept: a token signed earlier than the signing
    /// window is refused anyway, so older records only take space.
    private let replayRetentionMilliseconds: Int64
    private let pruneIntervalMilliseconds: Int64 = 60_000

    /// The replay check, which this writer alone claims in and settles.
    let ledger: SQLiteReplayLedger
    /// Whether the last write reached the disk; readiness reads it.
    let health = SQLiteWriteHealth()
    /// The server's event loops: a commit waits behind the work already queued on one.
    private let eventLoops: any EventLoopGroup

    /// - Parameter connection: commits with `synchronous = FULL`, for the transaction records.
    /// - Parameter unsyncedConnection: commits with `synchronous = NORMAL`, for ``performUnsynced(_:)``.
    init(
        connection: SQLiteConnection,
        unsyncedConnection: SQLiteConnection,
        ledger: SQLiteReplayLedger,
        replayRetention: TimeInterval,
        eventLoops: any EventLoopGroup
    ) {
        self.eventLoops = eventLoops
        self.connection = connection
        self.unsyncedConnection = unsyncedConnection
        self.ledger = ledger
        self.replayRetentionMilliseconds = Int64(replayRetention * 1000)
    }

    func submit(_ record: TransactionRecord) async throws -> RecordOutcome {
        let stages = RequestStages.current
        stages?.submitted()
        return try await withCheckedThrowingContinuation { continuation in
            let startCommitter = state.withLock { state in
                guard !state.closed else {
                    continuation.resume(throwing: SQLiteConnection.Failure(code: SQLITE_MISUSE, message: "the store is closed"))
                    return false
                }
                state.pending.append(Waiter(record, continuation, stages))
                guard !state.committing else { return false }
                state.committing = true
                return true
            }
            if startCommitter { scheduleCommit() }
        }
    }

    /// Queues the next commit behind the work an event loop already has (the current loop when
    /// called on one), then on the writer's queue.
    private func scheduleCommit() {
        eventLoops.any().execute {
            self.queue.async { self.commitNextBatch() }
        }
    }

    /// Runs a write that is not a transaction record (a session's) on the writer's queue, between
    /// group commits: one writer connection, so SQLite never sees two writers.
    func perform<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try await perform(unsynced: false, work)
    }

    /// Like ``perform(_:)``, on the connection whose commits wait for no fsync: for leases and
    /// delivery marks only. The log is written in order, so the next transaction record's fsync
    /// makes them durable too; one lost in a crash before it costs a repeat (same id) or a lease
    /// that was never taken. Their fsyncs competed with the group commits.
    func performUnsynced<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try await perform(unsynced: true, work)
    }

    private func perform<Value: Sendable>(
        unsynced: Bool,
        _ work: @escaping @Sendable (SQLiteConnection) throws -> Value
    ) async throws -> Value {
        guard !state.withLock({ $0.closed }) else {
            throw SQLiteConnection.Failure(code: SQLITE_MISUSE, message: "the store is closed")
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let connection = unsynced ? self.unsyncedConnection : self.connection
                continuation.resume(with: Result { try work(connection) }.mapError { self.health.failed($0) })
            }
        }
    }

    /// One small write (the database header's user version, rewritten as it is) and its fsync,
    /// when writes are failing and none was tried in the last second: a success makes the
    /// store writable again, which the next readiness check reports; a failure is thrown.
    func probeWriteIfFailing() async throws {
        guard health.shouldProbe() else {
            if let failing = health.failing { throw failing }
            return
        }
        try await perform { connection in
            try self.health.checkRoom(beside: connection.path)
            try connection.transaction {
                let version = try connection.query("PRAGMA user_version").first?.first?.integer ?? 0
                try connection.execute("PRAGMA user_version = \(version)")
            }
        }
        health.succeeded()
    }

    /// Refuses new records, lets the commits already queued finish, folds the write-ahead log
    /// into the database file and closes the connection.
    func close() async {
        // Records already submitted are still committed: the committer closes the connection
        // when it has none left.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let closeNow = state.withLock { state in
                state.closed = true
                guard state.committing else { return true }
                state.closing = continuation
                return false
            }
            if closeNow { queue.async { self.closeConnection(continuation) } }
        }
    }

    private func closeConnection(_ continuation: CheckedContinuation<Void, Never>) {
        unsyncedConnection.close()
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        continuation.resume()
    }

    /// One batch; the next, if records are waiting, behind the event loop's queued work again.
    private func commitNextBatch() {
        let batch: [Waiter] = state.withLock { state in
            let batch = Array(state.pending.prefix(maximumBatch))
            state.pending.removeFirst(batch.count)
            return batch
        }
        if !batch.isEmpty { commit(batch) }
        let (more, closing) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            if !state.pending.isEmpty { return (true, nil) }
            state.committing = false
            defer { state.closing = nil }
            return (false, state.closing)
        }
        if more {
            scheduleCommit()
        } else if let closing {
            closeConnection(closing)
        }
    }

    private func commit(_ batch: [Waiter]) {
        for waiter in batch { waiter.stages?.commitStarted(batchSize: batch.count) }
        let newest = batch.map(\.record.time.milliseconds).max() ?? 0
        let prune = state.withLock { state in
            if let last = state.lastPrune, newest - last < pruneIntervalMilliseconds { return false }
            state.lastPrune = newest
            return true
        }
        var outcomes: [Result<RecordOutcome, any Error>]
        do {
            let pruneBefore = prune ? newest - replayRetentionMilliseconds : nil
            do {
                outcomes = try write(batch, pruneBefore) { .success(try self.writeUnguarded($0)) }
            } catch is RecordNeedsUndoing {
                outcomes = try write(batch, pruneBefore) { self.writeInSavepoint($0) }
            }
            // The batch committed, so the disk takes writes; a record undone alone for a disk
            // error is still answered as the store being unavailable.
            health.succeeded()
            outcomes = outcomes.map { $0.mapError { SQLiteWriteHealth.classify($0) ?? $0 } }
        } catch {
            let error = health.failed(error)
            outcomes = batch.map { _ in .failure(error) }
        }
        for (waiter, outcome) in zip(batch, outcomes) {
            waiter.stages?.committed()
            waiter.continuation.resume(with: outcome)
        }
    }

    /// The batch's records, each written by `writeRecord`, and the pruning of replay records
    /// accepted before `pruneBefore` (if given), in one transaction. The ledger follows it: its
    /// claims are withdrawn if it does not commit, and what it pruned is forgotten once it has.
    private func write(
        _ batch: [Waiter],
        _ pruneBefore: Int64?,
        _ writeRecord: (TransactionRecord) throws -> Result<RecordOutcome, any Error>
    ) throws -> [Result<RecordOutcome, any Error>] {
        let (outcomes, pruned): ([Result<RecordOutcome, any Error>], [[SQLiteValue]])
        do {
            (outcomes, pruned) = try connection.transaction {
                let outcomes = try batch.map { try writeRecord($0.record) }
                guard let pruneBefore else { return (outcomes, []) }
                let pruned = try connection.query(
                    "DELETE FROM apple_pay_transactions WHERE accepted_at_ms < ? RETURNING apple_pay_transaction_id, data_digest",
                    [.integer(pruneBefore)]
                )
                return (outcomes, pruned)
            }
        } catch {
            ledger.withdrawClaims()
            throw error
        }
        ledger.settle(forgetting: pruned)
        return outcomes
    }

    /// A record in the batch has to be undone alone: the batch is written again, record by
    /// record in savepoints.
    private struct RecordNeedsUndoing: Error {}

    /// One record's writes with nothing to undo them, as nearly every record needs: a savepoint
    /// makes SQLite copy each page the record goes on to change (about 40 KB for a plain-card
    /// AUTHORIZE, a sixth of the writer's time). A duplicate writes nothing before it is found;
    /// any other refusal, or a failure, throws ``RecordNeedsUndoing``.
    private func writeUnguarded(_ record: TransactionRecord) throws -> RecordOutcome {
        let outcome: RecordOutcome
        do {
            outcome = try SQLiteRecordWriter.write(record, connection, ledger)
        } catch {
            throw RecordNeedsUndoing()
        }
        switch outcome {
        case .recorded, .duplicateTransaction: return outcome
        case .applePayReplay, .orderAlreadySucceeded, .orderChanged: throw RecordNeedsUndoing()
        }
    }

    /// One record's writes, undone alone (its replay claim with them) when they conflict or fail.
    private func writeInSavepoint(_ record: TransactionRecord) -> Result<RecordOutcome, any Error> {
        Result {
            let claims = ledger.unsettledCount
            try connection.run("SAVEPOINT record")
            do {
                let outcome = try SQLiteRecordWriter.write(record, connection, ledger)
                if outcome != .recorded {
                    try connection.run("ROLLBACK TO record")
                    ledger.withdrawClaims(since: claims)
                }
                try connection.run("RELEASE record")
                return outcome
            } catch {
                // A claim whose row may still be in the transaction stays: a token wrongly refused
                // is better than one charged twice.
                if (try? connection.run("ROLLBACK TO record")) != nil { ledger.withdrawClaims(since: claims) }
                try? connection.run("RELEASE record")
                throw error
            }
        }
    }
}
