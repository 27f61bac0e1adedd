import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The notification outbox every store keeps, run against SQLite and PostgreSQL alike: rows
/// written with their transactions and only with them, leases that keep an order's
/// notifications in order and never hand one row to two owners, and the outcomes.
@Suite("Notification outbox")
struct NotificationOutboxTests {
    static let now = Date(milliseconds: 1_700_000_000_000)

    static func open(_ fixture: StoreFixture) async throws -> any TransactionStore & NotificationOutbox {
        try #require(try await fixture.open() as? any TransactionStore & NotificationOutbox)
    }

    static func record(order: String, transaction: String = "1", url: String? = "https://shop.example/hook") -> TransactionRecord {
        var record = SampleRecords.record(order: order, transaction: transaction)
        record.notification = url.map { QueuedNotification(url: $0, isOrderURL: true) }
        if transaction != "1" {
            record.isInitial = false
            record.expectedOrderVersion = Int64(transaction).map { $0 - 1 }
        }
        return record
    }

    @Test("a notification is written with its transaction, and only when the transaction is", arguments: StoreKind.allCases)
    func writtenWithTheTransaction(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        #expect(try await store.record(Self.record(order: "A")) == .recorded)
        #expect(try await store.record(Self.record(order: "B", url: nil)) == .recorded)
        // A duplicate and a stale follow-on are refused: they queue nothing.
        #expect(try await store.record(Self.record(order: "A")) != .recorded)
        var stale = Self.record(order: "A", transaction: "2")
        stale.expectedOrderVersion = 7
        #expect(try await store.record(stale) == .orderChanged)

        let all = try await store.notifications(merchantId: nil, status: nil, limit: 10)
        #expect(all.map(\.orderId) == ["A"])
        let row = try #require(all.first)
        #expect(row.status == .pending && row.attempts == 0 && row.transactionId == "1")
        #expect(row.url == "https://shop.example/hook")
        #expect(row.createdAt == Self.now)
        #expect(try await store.orderNotificationURL(merchantId: "M", orderId: "A") == "https://shop.example/hook")
        #expect(try await store.orderNotificationURL(merchantId: "M", orderId: "B") == nil)
        #expect(try await store.notificationBacklog() == OutboxBacklog(pending: 1, oldestPendingCreatedAt: Self.now))
    }

    @Test("leases: one per order at a time, in transaction order; a live lease is not taken twice", arguments: StoreKind.allCases)
    func leasesKeepOrder(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        #expect(try await store.record(Self.record(order: "A")) == .recorded)
        #expect(try await store.record(Self.record(order: "A", transaction: "2")) == .recorded)
        #expect(try await store.record(Self.record(order: "B")) == .recorded)
        let later = Self.now.addingTimeInterval(1)

        let first = try await store.leaseNotifications(owner: "one", now: later, leaseUntil: later.addingTimeInterval(30), limit: 10)
        #expect(first.map { "\($0.orderId)/\($0.transactionId)" } == ["A/1", "B/1"])
        #expect(first.allSatisfy { $0.attempts == 1 })
        // Leased: another owner gets nothing, A/2 waits behind A/1.
        #expect(try await store.leaseNotifications(owner: "two", now: later, leaseUntil: later.addingTimeInterval(30), limit: 10).isEmpty)

        let a1 = try #require(first.first)
        #expect(try await store.notificationsDelivered(ids: [a1.id], owner: "two", at: later).isEmpty)
        #expect(try await store.notificationsDelivered(ids: [a1.id, a1.id + 1000], owner: "one", at: later) == [a1.id])
        let next = try await store.leaseNotifications(owner: "two", now: later, leaseUntil: later.addingTimeInterval(30), limit: 10)
        #expect(next.map { "\($0.orderId)/\($0.transactionId)" } == ["A/2"])
        #expect(try #require(next.first).id > a1.id)

        // B/1's owner died: once its lease expires another owner takes it, one attempt more.
        let expired = later.addingTimeInterval(31)
        let taken = try await store.leaseNotifications(owner: "three", now: expired, leaseUntil: expired.addingTimeInterval(30), limit: 10)
        #expect(taken.map { "\($0.orderId)/\($0.transactionId)" }.sorted() == ["A/2", "B/1"])
        #expect(taken.first { $0.orderId == "B" }?.attempts == 2)
        #expect(try await store.notification(id: a1.id)?.status == .delivered)
    }

    @Test("a failed attempt waits for its retry; past the horizon it fails; redeliver queues it again", arguments: StoreKind.allCases)
    func failuresAndRedelivery(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        #expect(try await store.record(Self.record(order: "A")) == .recorded)
        let t1 = Self.now.addingTimeInterval(1)
        let leased = try #require(try await store.leaseNotifications(owner: "o", now: t1, leaseUntil: t1.addingTimeInterval(30), limit: 5).first)
        let retryAt = t1.addingTimeInterval(10)
        #expect(try await store.notificationAttemptFailed(id: leased.id, owner: "o", cause: "http_5xx", retryAt: retryAt))
        #expect(
            try await store.leaseNotifications(owner: "o", now: t1.addingTimeInterval(5), leaseUntil: t1.addingTimeInterval(60), limit: 5).isEmpty
        )
        let again = try await store.leaseNotifications(owner: "o", now: retryAt, leaseUntil: retryAt.addingTimeInterval(30), limit: 5)
        #expect(again.map(\.attempts) == [2])
        #expect(again.first?.lastError == "http_5xx")
        #expect(try await store.notificationAttemptFailed(id: leased.id, owner: "o", cause: "connection", retryAt: nil))
        #expect(try await store.notifications(merchantId: nil, status: .failed, limit: 5).map(\.id) == [leased.id])
        #expect(try await store.notificationBacklog().pending == 0)

        #expect(try await store.redeliverNotification(id: leased.id, at: t1))
        #expect(try await !store.redeliverNotification(id: leased.id + 100, at: t1))
        let redelivered = try await store.leaseNotifications(owner: "p", now: t1, leaseUntil: t1.addingTimeInterval(30), limit: 5)
        #expect(redelivered.map(\.id) == [leased.id])
        #expect(redelivered.first?.attempts == 1)
    }

    @Test("concurrent leases never hand one notification to two owners", arguments: StoreKind.allCases)
    func concurrentLeases(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try await Self.open(fixture)
        for index in 0..<40 { #expect(try await store.record(Self.record(order: "O\(index)")) == .recorded) }
        // PostgreSQL: two stores, as two replicas; SQLite: one process owns the file.
        let stores = kind == .postgres ? [store, try await Self.open(fixture)] : [store, store]
        let later = Self.now.addingTimeInterval(1)
        let leased = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for owner in 0..<8 {
                group.addTask {
                    var mine: [Int64] = []
                    while true {
                        let batch = try await stores[owner % 2].leaseNotifications(
                            owner: "owner-\(owner)",
                            now: later,
                            leaseUntil: later.addingTimeInterval(60),
                            limit: 3
                        )
                        if batch.isEmpty { return mine }
                        mine += batch.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(leased.count == 40)
        #expect(Set(leased).count == 40)
    }
}
