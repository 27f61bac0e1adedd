import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The delivery loop's hand-over of what this replica just recorded: what it hands out is what
/// the store returns for the same transaction (so a notification's body is the same either way),
/// once, and it keeps no more than its capacity however many pass through.
@Suite("Just-recorded transactions")
struct JustRecordedTransactionsTests {
    @Test("hands out what the store returns for the transaction, once", arguments: StoreKind.allCases)
    func sameAsTheStore(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).open()
        let justRecorded = JustRecordedTransactions()
        for (order, transaction) in [("A", "1"), ("B", "1")] {
            let record = NotificationOutboxTests.record(order: order, transaction: transaction)
            #expect(try await store.record(record) == .recorded)
            justRecorded.remember(record)
        }
        let stored = try #require(try await store.transaction(merchantId: "M", orderId: "B", transactionId: "1"))
        let handed = try #require(justRecorded.take(merchantId: "M", orderId: "B", transactionId: "1"))
        #expect(handed.receipt == stored.receipt)
        #expect(handed.response == stored.response)
        #expect(justRecorded.take(merchantId: "M", orderId: "B", transactionId: "1") == nil, "handed out twice")
        #expect(justRecorded.take(merchantId: "M", orderId: "B", transactionId: "2") == nil)
        #expect(justRecorded.take(merchantId: "other", orderId: "A", transactionId: "1") == nil)
        #expect(justRecorded.take(merchantId: "M", orderId: "A", transactionId: "1") != nil)
    }

    @Test("keeps at most its capacity: the oldest go first, taken ones leave nothing behind")
    func bounded() {
        let justRecorded = JustRecordedTransactions(capacity: 8)
        for index in 0..<20 { justRecorded.remember(SampleRecords.record(order: "kept-\(index)")) }
        #expect(justRecorded.count == 8)
        #expect(justRecorded.take(merchantId: "M", orderId: "kept-11", transactionId: "1") == nil, "an evicted one came back")
        #expect(justRecorded.take(merchantId: "M", orderId: "kept-12", transactionId: "1") != nil)
        #expect(justRecorded.take(merchantId: "M", orderId: "kept-19", transactionId: "1") != nil)

        // Remembered and taken at once, many times over: nothing piles up, and a newer one is kept.
        for index in 0..<10_000 {
            justRecorded.remember(SampleRecords.record(order: "passing-\(index)"))
            #expect(justRecorded.take(merchantId: "M", orderId: "passing-\(index)", transactionId: "1") != nil)
        }
        #expect(justRecorded.count == 6)

        // One never taken (another replica delivered it) ages out as newer ones arrive.
        for index in 0..<8 { justRecorded.remember(SampleRecords.record(order: "later-\(index)")) }
        #expect(justRecorded.count <= 8)
        #expect(justRecorded.take(merchantId: "M", orderId: "kept-13", transactionId: "1") == nil, "a stale one stayed")
    }
}
