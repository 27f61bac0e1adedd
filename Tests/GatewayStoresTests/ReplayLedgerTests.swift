import Foundation
import NIOPosix
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The SQLite store checks replays in memory (SQLiteReplayLedger) and appends the records to a
/// table without unique keys: the memory must agree with the disk across restarts, failed
/// commits, rolled-back records and pruning, and the upgrade must keep every record in force.
@Suite("Replay records kept in memory and on disk")
struct ReplayLedgerTests {
    @Test("a used token is refused after the store is opened again, by either key", arguments: StoreKind.allCases)
    func refusedAfterRestart(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let first = try await fixture.open()
        #expect(try await first.record(SampleRecords.record(order: "o", applePay: "used")) == .recorded)
        await first.close()

        let reopened = try await fixture.open()
        #expect(try await reopened.isUsed("used"))
        #expect(try await reopened.record(SampleRecords.record(order: "p", applePay: "used")) == .applePayReplay)
        var sameData = SampleRecords.record(order: "q")
        sameData.applePayReplay = ApplePayReplayKey(transactionId: "other", dataDigest: ApplePayReplayKey.named("used").dataDigest)
        #expect(try await reopened.record(sameData) == .applePayReplay)
        #expect(try await reopened.record(SampleRecords.record(order: "r", applePay: "fresh")) == .recorded)
        await reopened.close()
    }

    @Test("a record whose replay row cannot be written leaves its token unused; the rest of its batch commits")
    func failedRecordWithdrawsItsClaim() async throws {
        let store = try SQLiteTransactionStore(path: StoreKind.newSQLitePath(), eventLoops: MultiThreadedEventLoopGroup.singleton)
        // The failure comes after the record has claimed its token in memory.
        try await store.writer.perform { connection in
            try connection.execute(
                """
                CREATE TEMP TRIGGER refuse_bad BEFORE INSERT ON apple_pay_transactions WHEN NEW.order_id = 'bad'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """
            )
        }
        let outcomes = await store.recordTogether(["good-1", "bad", "good-2"]) { SampleRecords.record(order: $0, applePay: "apple-\($0)") }
        #expect((try? outcomes["good-1"]?.get()) == .recorded)
        #expect((try? outcomes["good-2"]?.get()) == .recorded)
        #expect(throws: SQLiteConnection.Failure.self) { try outcomes["bad"]?.get() }
        #expect(try await !store.isUsed("apple-bad"))
        #expect(try await store.isUsed("apple-good-1"))
        #expect(try await store.isUsed("apple-good-2"))

        // Once the fault is gone, the token is accepted, on an order that can be written.
        #expect(try await store.record(SampleRecords.record(order: "retry", applePay: "apple-bad")) == .recorded)
        #expect(try await store.record(SampleRecords.record(order: "again", applePay: "apple-bad")) == .applePayReplay)
        await store.close()
    }

    @Test("a commit that fails withdraws every claim it held")
    func failedCommitWithdrawsItsClaims() async throws {
        let store = try SQLiteTransactionStore(path: StoreKind.newSQLitePath(), eventLoops: MultiThreadedEventLoopGroup.singleton)
        // A store's first commit prunes old replay records; here the pruning of an old one fails,
        // and with it the whole commit.
        try await store.writer.perform { connection in
            try connection.execute(
                """
                INSERT INTO apple_pay_transactions VALUES ('ancient', 'M', 'a', '1', 0, NULL);
                CREATE TEMP TRIGGER refuse_pruning BEFORE DELETE ON apple_pay_transactions BEGIN SELECT RAISE(ABORT, 'no'); END
                """
            )
        }
        await #expect(throws: SQLiteConnection.Failure.self) {
            try await store.record(SampleRecords.record(order: "o", applePay: "apple-1"))
        }
        #expect(try await !store.isUsed("apple-1"))
        #expect(try await store.order(merchantId: "M", orderId: "o") == nil)

        try await store.writer.perform { try $0.execute("DROP TRIGGER refuse_pruning") }
        #expect(try await store.record(SampleRecords.record(order: "o", applePay: "apple-1")) == .recorded)
        #expect(try await store.isUsed("apple-1"))
        await store.close()
    }

    @Test("a pruned token is forgotten in memory as on disk, and stays forgotten after a restart")
    func prunedTokenForgotten() async throws {
        let path = StoreKind.newSQLitePath()
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton, replayRetention: 600)
        var old = SampleRecords.record(order: "old", applePay: "apple-old")
        old.time = Date(milliseconds: 1_700_000_000_000)
        #expect(try await store.record(old) == .recorded)
        var later = SampleRecords.record(order: "later", applePay: "apple-later")
        later.time = Date(milliseconds: 1_700_000_000_000 + 3_600_000)
        #expect(try await store.record(later) == .recorded)

        // The old record is gone from the table and from memory: the token is accepted again.
        let rows = try await store.writer.perform { try $0.query("SELECT apple_pay_transaction_id FROM apple_pay_transactions") }
        #expect(rows.map { $0[0].text } == ["apple-later"])
        #expect(try await !store.isUsed("apple-old"))
        var reused = SampleRecords.record(order: "reused", applePay: "apple-old")
        reused.time = later.time
        #expect(try await store.record(reused) == .recorded)
        await store.close()

        let reopened = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton, replayRetention: 600)
        #expect(try await reopened.isUsed("apple-later"))
        #expect(try await reopened.isUsed("apple-old"))
        #expect(try await !reopened.isUsed("apple-never"))
        await reopened.close()
    }

    @Test("the upgrade appends the records to a table without unique keys and keeps every one in force")
    func upgradeKeepsRecordsInForce() async throws {
        let path = StoreKind.newSQLitePath()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        do {
            let old = try SQLiteConnection(path: path)
            try SQLiteMigrations.migrate(old, upTo: 14)
            // One record of a release before digests, one with both keys.
            let digest = ApplePayReplayKey.named("with-digest").dataDigestHex
            try old.execute(
                """
                INSERT INTO apple_pay_transactions (apple_pay_transaction_id, merchant_id, order_id, transaction_id, accepted_at_ms)
                    VALUES ('no-digest', 'M', 'o-1', '1', 1700000000000);
                INSERT INTO apple_pay_transactions VALUES ('with-digest', 'M', 'o-2', '1', 1700000000001, '\(digest)');
                """
            )
            old.close()
        }
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        let schema = try await store.writer.perform { connection in
            try connection.query("SELECT name, sql FROM sqlite_master WHERE tbl_name = 'apple_pay_transactions'")
        }
        let names = Set(schema.compactMap { $0[0].text })
        #expect(names == ["apple_pay_transactions", "apple_pay_transactions_by_time"])
        #expect(schema.allSatisfy { !($0[1].text ?? "").uppercased().contains("PRIMARY KEY") })

        #expect(try await store.isApplePayTokenUsed(ApplePayReplayKey(transactionId: "no-digest", dataDigest: [1])))
        #expect(try await store.isUsed("with-digest"))
        var sameData = SampleRecords.record(order: "p")
        sameData.applePayReplay = ApplePayReplayKey(transactionId: "other", dataDigest: ApplePayReplayKey.named("with-digest").dataDigest)
        #expect(try await store.record(sameData) == .applePayReplay)
        #expect(try await store.record(SampleRecords.record(order: "q", applePay: "no-digest")) == .applePayReplay)
        #expect(try await store.record(SampleRecords.record(order: "r", applePay: "new")) == .recorded)
        let count = try await store.writer.perform { try $0.query("SELECT count(*) FROM apple_pay_transactions") }
        #expect(count.first?.first?.integer == 3)
        await store.close()
    }
}
