import Foundation
import NIOPosix
import PostgresTestServer
import StoreTestSupport
import Synchronization
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// A replica's records go to PostgreSQL in batches: those that arrive while two batches are in
/// flight wait and share the next statement and commit, each answered with its own outcome.
@Suite("PostgreSQL record batches", .blocksThreads)
struct PostgresRecordBatchTests {
    struct Refused: Error, Equatable { let order: String }

    /// A write that holds its batch until released, and says what each batch held.
    final class HeldWrites: Sendable {
        let batches = Mutex<[[String]]>([])
        /// Each batch's deadline, as the write was given it.
        let deadlines = Mutex<[ContinuousClock.Instant]>([])
        private let gates = Mutex<[CheckedContinuation<Void, Never>]>([])

        func write(
            _ records: [TransactionRecord],
            _: [RequestStages?],
            _ deadline: ContinuousClock.Instant
        ) async -> [Result<RecordOutcome, any Error>] {
            batches.withLock { $0.append(records.map(\.orderId)) }
            deadlines.withLock { $0.append(deadline) }
            await withCheckedContinuation { continuation in gates.withLock { $0.append(continuation) } }
            // Each record's own answer: the even orders are recorded, the odd ones refused by name.
            return records.map { record in
                Int(record.orderId.dropFirst())! % 2 == 0 ? .success(.recorded) : .failure(Refused(order: record.orderId))
            }
        }

        var held: Int { gates.withLock { $0.count } }

        func releaseOne() {
            let gate = gates.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            gate?.resume()
        }
    }

    private static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Refused(order: "timed out") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("with two batches in flight the records arriving meanwhile wait, then go together, each with its own answer")
    func recordsWaitingGoTogether() async throws {
        let batches = PostgresRecordBatches(maximumWriting: 2, maximumBatch: 4)
        let writes = HeldWrites()
        try await withThrowingTaskGroup(of: (String, Result<RecordOutcome, any Error>).self) { group in
            func submit(_ order: String) {
                group.addTask {
                    do {
                        let record = SampleRecords.record(order: order)
                        return (order, .success(try await batches.record(record, stages: nil, timeout: .seconds(600), write: writes.write)))
                    } catch {
                        return (order, .failure(error))
                    }
                }
            }
            submit("o0")
            submit("o1")
            // Both go at once, alone: nothing was waiting.
            try await Self.waitUntil { writes.held == 2 }
            for number in 2..<8 { submit("o\(number)") }
            try await Self.waitUntil { batches.waitingCount == 6 }
            // The first batch ends: the first waiting record writes the next batch with the three
            // after it (the batch's bound); the second batch ends: the last two go together.
            writes.releaseOne()
            try await Self.waitUntil { writes.held == 2 }
            writes.releaseOne()
            try await Self.waitUntil { writes.held == 2 }
            writes.releaseOne()
            writes.releaseOne()
            var answers: [String: Result<RecordOutcome, any Error>] = [:]
            for try await (order, answer) in group { answers[order] = answer }
            #expect(answers.count == 8)
            for (order, answer) in answers {
                let number = Int(order.dropFirst())!
                switch answer {
                case .success(let outcome): #expect(number % 2 == 0 && outcome == .recorded, "\(order)")
                case .failure(let error): #expect(number % 2 == 1 && (error as? Refused) == Refused(order: order), "\(order)")
                }
            }
        }
        let sizes = writes.batches.withLock { $0.map(\.count) }
        #expect(sizes == [1, 1, 4, 2], "batches: \(writes.batches.withLock { $0 })")
        #expect(batches.waitingCount == 0)
    }

    @Test("a record whose time runs out while it waits is answered unavailable, and a batch ends by its earliest deadline")
    func waitingPastTheDeadline() async throws {
        let batches = PostgresRecordBatches(maximumWriting: 1, maximumBatch: 8)
        let writes = HeldWrites()
        func submit(_ order: String, _ timeout: Duration) -> Task<Result<RecordOutcome, any Error>, Never> {
            Task {
                do {
                    return .success(try await batches.record(SampleRecords.record(order: order), stages: nil, timeout: timeout, write: writes.write))
                } catch {
                    return .failure(error)
                }
            }
        }
        let first = submit("o0", .seconds(600))
        try await Self.waitUntil { writes.held == 1 }
        let impatient = submit("o2", .milliseconds(50))
        try await Self.waitUntil { batches.waitingCount == 1 }
        let patient = submit("o4", .seconds(300))
        try await Self.waitUntil { batches.waitingCount == 2 }
        try await Task.sleep(for: .milliseconds(100))  // the 50 ms run out while o0's batch is held
        writes.releaseOne()
        try await Self.waitUntil { writes.held == 1 }
        writes.releaseOne()
        if case .failure(let error) = await impatient.value {
            #expect(error is StoreUnavailable, "\(error)")
        } else {
            Issue.record("a record past its deadline was written")
        }
        #expect(try await first.value.get() == .recorded)
        #expect(try await patient.value.get() == .recorded)
        #expect(writes.batches.withLock { $0 } == [["o0"], ["o4"]])
        // o4's batch ends by o4's own deadline, about 300 s from its arrival (not o0's 600 s).
        let deadlines = writes.deadlines.withLock { $0 }
        #expect(deadlines.count == 2 && deadlines[1] < deadlines[0])
    }

    @Test("concurrent records share commits in PostgreSQL, and one the server rejects fails alone")
    func concurrentRecordsShareCommits() async throws {
        let server = try await PostgresTestServer.shared()
        let location = try StoreFixture.postgresLocation(try await server.createDatabase())
        let store = PostgresTransactionStore(
            location: location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await store.prepare()
        // PostgreSQL refuses a text with a NUL character: the batch that holds it is rolled back
        // and written again one record at a time.
        let orders = (0..<60).map { $0 == 37 ? "shared-\u{0}-37" : "shared-\($0)" }
        let answers = await withTaskGroup(of: (String, Result<RecordOutcome, any Error>).self) { group in
            for order in orders {
                group.addTask {
                    do {
                        return (order, .success(try await store.record(SampleRecords.record(order: order, applePay: "apple-\(order)"))))
                    } catch {
                        return (order, .failure(error))
                    }
                }
            }
            var answers: [String: Result<RecordOutcome, any Error>] = [:]
            for await (order, answer) in group { answers[order] = answer }
            return answers
        }
        for order in orders {
            switch answers[order] {
            case .success(let outcome): #expect(order != orders[37] && outcome == .recorded, "\(order)")
            case .failure(let error): #expect(order == orders[37], "\(order): \(error)")
            case nil: Issue.record("\(order) unanswered")
            }
        }
        let stored = try await server.psql(
            "SELECT count(*) || ' ' || count(DISTINCT xmin::text) FROM transactions WHERE order_id LIKE 'shared-%'",
            database: location.database
        ).split(separator: " ").compactMap { Int($0) }
        try #require(stored.count == 2)
        #expect(stored[0] == 59, "every record but the rejected one is stored")
        #expect(stored[1] < 59, "\(stored[1]) commits for 59 records: none was shared")
        // Each record's own row, found by its identifiers.
        let transaction = try await store.transaction(merchantId: "M", orderId: "shared-12", transactionId: "1")
        #expect(transaction?.receipt.orderId == "shared-12")
        // A record sent again is a duplicate, in a batch or not.
        #expect(try await store.record(SampleRecords.record(order: "shared-5")) != .recorded)
        await store.close()
    }
}
