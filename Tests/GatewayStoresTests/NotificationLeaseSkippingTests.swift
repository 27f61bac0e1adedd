import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// Issue 59, finding 6: a lease leaves out the merchants the delivery loop skips (those using
/// their share of its slots), so another merchant's notification is leased although older ones of
/// the skipped merchant wait before it. Both stores.
@Suite("Notification lease skipping merchants")
struct NotificationLeaseSkippingTests {
    static func record(merchant: String, order: String) -> TransactionRecord {
        var record = NotificationOutboxTests.record(order: order)
        record.merchantId = merchant
        return record
    }

    @Test("skipped merchants' notifications stay in the outbox; the others' are leased past them", arguments: StoreKind.allCases)
    func skipsMerchants(kind: StoreKind) async throws {
        let store = try await NotificationOutboxTests.open(try await StoreFixture(kind))
        for index in 0..<5 { #expect(try await store.record(Self.record(merchant: "SLOW", order: "s\(index)")) == .recorded) }
        #expect(try await store.record(Self.record(merchant: "QUIET", order: "q")) == .recorded)
        #expect(try await store.record(Self.record(merchant: "GOOD", order: "g")) == .recorded)
        let later = NotificationOutboxTests.now.addingTimeInterval(1)
        let until = later.addingTimeInterval(30)

        let leased = try await store.leaseNotifications(owner: "o", now: later, leaseUntil: until, limit: 2, skippingMerchants: ["SLOW", "QUIET"])
        #expect(leased.map(\.merchantId) == ["GOOD"])
        // Without skipping, the oldest first: the slow merchant's fill the limit.
        let rest = try await store.leaseNotifications(owner: "o", now: later, leaseUntil: until, limit: 2, skippingMerchants: [])
        #expect(rest.map(\.merchantId) == ["SLOW", "SLOW"])
        let quiet = try await store.leaseNotifications(owner: "o", now: later, leaseUntil: until, limit: 10, skippingMerchants: ["SLOW"])
        #expect(quiet.map(\.merchantId) == ["QUIET"])
    }
}
