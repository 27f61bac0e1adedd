import Foundation
import NIOPosix
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The write-ahead log is folded into the database beside the writer, not by the commit that
/// fills it.
@Suite("SQLite checkpoints beside the writer")
struct SQLiteCheckpointerTests {
    @Test("a writer that leaves room has its log checkpointed beside it, never by itself")
    func checkpointsBesideTheWriter() async throws {
        let path = StoreKind.newSQLitePath()
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        // 4 KiB responses: every record writes several pages, so without checkpoints the log
        // would pass the backstop (about 10,000 pages for 1,200 such records). The writer pauses
        // between records and while a checkpoint runs, as a moderately loaded one does: the
        // writer starts the log again once a checkpoint has caught up with it. (A fixed 2 ms
        // pause was not room enough on a machine busy with the rest of the suite: CI reached
        // the backstop once.)
        let records = 1500
        for index in 0..<records {
            var record = SampleRecords.record(order: "order-\(index)", applePay: "apple-\(index)")
            record.response.bytes = Array(repeating: UInt8(ascii: "x"), count: 4096)
            #expect(try await store.record(record) == .recorded)
            try await Task.sleep(for: .milliseconds(1))
            let patience = ContinuousClock.now + .seconds(10)
            while store.checkpointer.isCheckpointing, ContinuousClock.now < patience {
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        // The checkpointer runs after the commits that signal it; give it a moment to finish.
        for _ in 0..<200 where store.checkpointer.completedCheckpoints == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(store.checkpointer.completedCheckpoints > 0)
        #expect(store.checkpointer.backstopCheckpoints == 0)
        await store.close()

        // Every record is there after closing and opening again.
        let reopened = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        for index in stride(from: 0, to: records, by: 97) {
            let stored = try await reopened.transaction(merchantId: "M", orderId: "order-\(index)", transactionId: "1")
            #expect(stored?.response.bytes.count == 4096)
        }
        #expect(try await reopened.isUsed("apple-\(records - 1)"))
        await reopened.close()
    }

    @Test("the writer checkpoints itself only past the backstop")
    func backstop() async throws {
        let store = try SQLiteTransactionStore(path: StoreKind.newSQLitePath(), eventLoops: MultiThreadedEventLoopGroup.singleton)
        #expect(store.checkpointer.logHolds(frames: 10) == false)
        #expect(store.checkpointer.logHolds(frames: SQLiteCheckpointer.thresholdFrames) == false)
        #expect(store.checkpointer.logHolds(frames: SQLiteCheckpointer.backstopFrames) == true)
        #expect(store.checkpointer.backstopCheckpoints == 1)
        await store.close()
        // Closed, it starts nothing, and still leaves the backstop to the writer.
        let before = store.checkpointer.completedCheckpoints
        #expect(store.checkpointer.logHolds(frames: SQLiteCheckpointer.thresholdFrames) == false)
        #expect(store.checkpointer.logHolds(frames: SQLiteCheckpointer.backstopFrames) == true)
        // Nothing was scheduled, so nothing will run.
        #expect(!store.checkpointer.isCheckpointing)
        #expect(store.checkpointer.completedCheckpoints == before)
    }
}
