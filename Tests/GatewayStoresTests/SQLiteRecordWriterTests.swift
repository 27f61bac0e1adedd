import Foundation
import NIOPosix
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The SQLite writer checks a record's preconditions with the writes they guard: a record that
/// meets them reads nothing, and one that does not is still told why.
@Suite("SQLite record writes")
struct SQLiteRecordWriterTests {
    private static func openStore() throws -> SQLiteTransactionStore {
        try SQLiteTransactionStore(path: StoreKind.newSQLitePath(), eventLoops: MultiThreadedEventLoopGroup.singleton)
    }

    /// Every statement the writer ran while it recorded `record`, by its first word.
    private static func log(
        of record: TransactionRecord,
        in store: SQLiteTransactionStore
    ) async throws
        -> (RecordOutcome, [String])
    {
        try await store.writer.perform { $0.statementLog = [] }
        let outcome = try await store.record(record)
        let log = try await store.writer.perform { connection in
            defer { connection.statementLog = nil }
            return connection.statementLog ?? []
        }
        return (outcome, log.map { String($0.split(separator: " ").first ?? "") })
    }

    /// The statements the record's own writes ran in the transaction that committed it.
    private static func statements(
        of record: TransactionRecord,
        in store: SQLiteTransactionStore
    ) async throws
        -> (RecordOutcome, [String])
    {
        let (outcome, words) = try await log(of: record, in: store)
        let committed = words[((words.lastIndex(of: "BEGIN") ?? -1) + 1)...]
        // A record never deletes: a DELETE is the batch's pruning of old replay records.
        let own = committed.filter { !["SAVEPOINT", "RELEASE", "DELETE", "COMMIT"].contains($0) }
        return (outcome, Array(own))
    }

    @Test("a new Apple Pay record writes its transaction, order and replay record and reads nothing")
    func newRecordReadsNothing() async throws {
        let store = try Self.openStore()
        let (outcome, statements) = try await Self.statements(
            of: SampleRecords.record(order: "o", applePay: "apple-1"),
            in: store
        )
        #expect(outcome == .recorded)
        #expect(statements == ["INSERT", "INSERT", "INSERT"])
    }

    @Test("a follow-on updates the order at the version it was decided on, without reading it")
    func followOnReadsNothing() async throws {
        let store = try Self.openStore()
        #expect(try await store.record(SampleRecords.record(order: "o", transaction: "auth")) == .recorded)
        var capture = SampleRecords.record(order: "o", transaction: "capture")
        capture.isInitial = false
        capture.expectedOrderVersion = 1
        let (outcome, statements) = try await Self.statements(of: capture, in: store)
        #expect(outcome == .recorded)
        #expect(statements == ["INSERT", "UPDATE"])
        #expect(try await store.order(merchantId: "M", orderId: "o")?.version == 2)
    }

    @Test("refused writes read to say why, and leave nothing behind")
    func refusalsAreExplained() async throws {
        let store = try Self.openStore()
        let first = SampleRecords.record(order: "o", transaction: "1", applePay: "apple-1")
        #expect(try await store.record(first) == .recorded)

        // The same identifiers again: the stored transaction, whatever else the record says.
        var retry = SampleRecords.record(order: "o", transaction: "1", applePay: "apple-2")
        retry.response.bytes = Array("other".utf8)
        let (retryOutcome, retryStatements) = try await Self.statements(of: retry, in: store)
        #expect(retryOutcome == .duplicateTransaction(first.stored))
        #expect(retryStatements == ["INSERT", "SELECT"])

        // An order that gained a successful initial transaction, and one whose version moved.
        let (secondOutcome, _) = try await Self.statements(of: SampleRecords.record(order: "o", transaction: "2"), in: store)
        #expect(secondOutcome == .orderAlreadySucceeded)
        var stale = SampleRecords.record(order: "o", transaction: "3")
        stale.isInitial = false
        stale.expectedOrderVersion = 7
        #expect(try await store.record(stale) == .orderChanged)
        var missing = SampleRecords.record(order: "nowhere", transaction: "1")
        missing.isInitial = false
        missing.expectedOrderVersion = 1
        #expect(try await store.record(missing) == .orderChanged)

        // A used token on a new order.
        #expect(try await store.record(SampleRecords.record(order: "p", applePay: "apple-1")) == .applePayReplay)

        for (order, transaction) in [("o", "2"), ("o", "3"), ("nowhere", "1"), ("p", "1")] {
            #expect(try await store.transaction(merchantId: "M", orderId: order, transactionId: transaction) == nil)
        }
        #expect(try await store.order(merchantId: "M", orderId: "p") == nil)
        #expect(try await store.order(merchantId: "M", orderId: "o")?.version == 1)
        #expect(try await store.isUsed("apple-2") == false)
    }

    @Test("a record with nothing to undo takes no savepoint; a refused one is undone alone, in one")
    func savepointsOnlyToUndo() async throws {
        let store = try Self.openStore()
        // The first commit also prunes old replay records; the next does not for a minute.
        #expect(try await store.record(SampleRecords.record(order: "first")) == .recorded)
        let (recorded, recordedLog) = try await Self.log(of: SampleRecords.record(order: "o", applePay: "apple-1"), in: store)
        #expect(recorded == .recorded)
        #expect(recordedLog == ["BEGIN", "INSERT", "INSERT", "INSERT", "COMMIT"])

        // The used token again, on another order: written up to its replay check (in memory),
        // refused, rolled back, and written again in a savepoint that undoes it alone.
        let (replayed, replayedLog) = try await Self.log(of: SampleRecords.record(order: "p", applePay: "apple-1"), in: store)
        #expect(replayed == .applePayReplay)
        #expect(
            replayedLog == [
                "BEGIN", "INSERT", "INSERT", "ROLLBACK",
                "BEGIN", "SAVEPOINT", "INSERT", "INSERT", "ROLLBACK", "RELEASE", "COMMIT",
            ]
        )
        #expect(try await store.order(merchantId: "M", orderId: "p") == nil)
        #expect(try await store.transaction(merchantId: "M", orderId: "p", transactionId: "1") == nil)
        #expect(try await store.transaction(merchantId: "M", orderId: "o", transactionId: "1") != nil)
    }

    @Test("a record whose write fails is answered with the failure alone; the rest of its batch commits")
    func failedRecordFailsAlone() async throws {
        let store = try Self.openStore()
        // A failure inside one record's writes, as a full disk or a corrupt page would give.
        try await store.writer.perform { connection in
            try connection.execute(
                """
                CREATE TEMP TRIGGER refuse_bad BEFORE INSERT ON orders WHEN NEW.order_id = 'bad'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """
            )
        }
        let outcomes = await store.recordTogether(["good-1", "good-2", "bad", "good-3", "good-4"]) { SampleRecords.record(order: $0) }
        for order in ["good-1", "good-2", "good-3", "good-4"] {
            #expect((try? outcomes[order]?.get()) == .recorded)
            #expect(try await store.order(merchantId: "M", orderId: order) != nil)
        }
        #expect(throws: SQLiteConnection.Failure.self) { try outcomes["bad"]?.get() }
        #expect(try await store.transaction(merchantId: "M", orderId: "bad", transactionId: "1") == nil)
    }

    @Test("a batch's savepoint journals stay in memory, and a refused record is still undone alone")
    func savepointJournalsInMemory() async throws {
        let store = try Self.openStore()
        // 2 = MEMORY: the journal of each record's savepoint never reaches a temporary file.
        let tempStore = try await store.writer.perform { try $0.query("PRAGMA temp_store") }
        #expect(tempStore.first?.first?.integer == 2)

        // Commits of many records, whose journals together pass the 64 KiB at which SQLite used
        // to move them to a file: every third record replays the token of the record before it
        // and is refused inside the same commits.
        let outcomes = try await withThrowingTaskGroup(of: (Int, RecordOutcome).self) { group in
            for index in 0..<90 {
                let token = index % 3 == 2 ? "apple-\(index - 1)" : "apple-\(index)"
                group.addTask { (index, try await store.record(SampleRecords.record(order: "o\(index)", applePay: token))) }
            }
            return try await group.reduce(into: [Int: RecordOutcome]()) { $0[$1.0] = $1.1 }
        }
        for index in stride(from: 1, to: 90, by: 3) {
            // Of the two records sharing a token, exactly one was recorded, with its order.
            let pair = [outcomes[index], outcomes[index + 1]]
            #expect(pair.filter { $0 == .recorded }.count == 1)
            #expect(pair.filter { $0 == .applePayReplay }.count == 1)
            let refused = outcomes[index] == .recorded ? index + 1 : index
            #expect(try await store.order(merchantId: "M", orderId: "o\(refused)") == nil)
        }
        #expect(outcomes.values.filter { $0 == .recorded }.count == 60)
    }
}
