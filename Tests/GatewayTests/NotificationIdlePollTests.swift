import BlockingWork
import Foundation
import GatewayCore
import Logging
import NIOPosix
import Prometheus
import Synchronization
import Testing

@testable import Gateway
@testable import GatewayNotifications
@testable import GatewayStores

/// The delivery loop over a real SQLite outbox with nothing to send: it looks less and less often
/// (it leased 20 times a second, for ever, at the 50 ms poll), and a ring still wakes it at once.
@Suite("Notification delivery loop, idle")
struct NotificationIdlePollTests {
    /// The store's outbox, counting the leases asked of it.
    final class CountingOutbox: NotificationOutbox {
        let store: SQLiteTransactionStore
        private let leaseTimes = Mutex<[ContinuousClock.Instant]>([])

        init(_ store: SQLiteTransactionStore) { self.store = store }

        var leases: [ContinuousClock.Instant] { leaseTimes.withLock { $0 } }

        func leaseNotifications(
            owner: String,
            now: Date,
            leaseUntil: Date,
            limit: Int,
            skippingMerchants: Set<String>
        ) async throws -> [OutboxNotification] {
            leaseTimes.withLock { $0.append(.now) }
            return try await store.leaseNotifications(
                owner: owner,
                now: now,
                leaseUntil: leaseUntil,
                limit: limit,
                skippingMerchants: skippingMerchants
            )
        }

        func orderNotificationURL(merchantId: String, orderId: String) async throws -> String? {
            try await store.orderNotificationURL(merchantId: merchantId, orderId: orderId)
        }

        func notificationsDelivered(ids: [Int64], owner: String, at time: Date) async throws -> Set<Int64> {
            try await store.notificationsDelivered(ids: ids, owner: owner, at: time)
        }

        func notificationAttemptFailed(id: Int64, owner: String, cause: String, retryAt: Date?) async throws -> Bool {
            try await store.notificationAttemptFailed(id: id, owner: owner, cause: cause, retryAt: retryAt)
        }

        func notifications(merchantId: String?, status: OutboxNotification.Status?, limit: Int) async throws -> [OutboxNotification] {
            try await store.notifications(merchantId: merchantId, status: status, limit: limit)
        }

        func notification(id: Int64) async throws -> OutboxNotification? { try await store.notification(id: id) }

        func redeliverNotification(id: Int64, at time: Date) async throws -> Bool {
            try await store.redeliverNotification(id: id, at: time)
        }

        func notificationBacklog() async throws -> OutboxBacklog { try await store.notificationBacklog() }
    }

    /// The loop over a fresh store, with `settings`, its leases counted.
    func startLoop(_ settings: NotificationSettings) throws -> (CountingOutbox, NotificationDoorbell, Task<Void, any Error>, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idle-poll-\(UUID().uuidString).sqlite").path
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        let outbox = CountingOutbox(store)
        let doorbell = NotificationDoorbell()
        let delivery = NotificationDelivery(
            outbox: outbox,
            doorbell: doorbell,
            justRecorded: JustRecordedTransactions(),
            store: store,
            merchants: [:],
            settings: settings,
            production: false,
            metrics: NotificationMetrics(registry: PrometheusCollectorRegistry()),
            clock: { Date() },
            logger: Logger(label: "test")
        )
        // On threads of its own: on the shared pool, beside the other suites, the loop's task once
        // waited 20 s to start.
        return (outbox, doorbell, Task(executorPreference: BlockingWorkExecutor.shared) { try await delivery.run() }, path)
    }

    func stop(_ outbox: CountingOutbox, _ loop: Task<Void, any Error>, _ path: String) async {
        loop.cancel()
        _ = try? await loop.value
        await outbox.store.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    @Test("an idle loop backs off from the 50 ms poll to a lease a second")
    func idleLoopBacksOff() async throws {
        let settings = NotificationSettings()
        #expect(settings.pollIntervalMilliseconds == 50)
        let (outbox, _, loop, path) = try startLoop(settings)
        let deadline = ContinuousClock.now + .seconds(20)
        while outbox.leases.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .seconds(3))
        let idle = outbox.leases.count
        // It still looks again without a ring. Waited for, not counted in the 3 s: beside the other
        // suites the wait's timer once fired seconds late.
        let later = ContinuousClock.now + .seconds(15)
        while outbox.leases.count < 2, ContinuousClock.now < later { try await Task.sleep(for: .milliseconds(20)) }
        let polledAgain = outbox.leases.count >= 2
        await stop(outbox, loop, path)
        // The first, then 50, 100, 200, 400, 800 ms, then a second: 7 leases in 3 s (60 at a
        // steady 50 ms).
        #expect(idle <= 12, "\(idle) leases in 3 idle seconds")
        #expect(polledAgain, "the idle loop never leased again")
    }

    @Test("a ring wakes an idle loop at once, not at its next poll")
    func ringWakesTheLoop() async throws {
        var settings = NotificationSettings()
        settings.pollIntervalMilliseconds = 10_000
        let (outbox, doorbell, loop, path) = try startLoop(settings)
        // Its first lease, then a wait of 10 s that only the ring can cut short.
        let deadline = ContinuousClock.now + .seconds(20)
        while outbox.leases.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(outbox.leases.count == 1)
        let rung = ContinuousClock.now
        doorbell.ring()
        while outbox.leases.count < 2, ContinuousClock.now - rung < .seconds(8) { try await Task.sleep(for: .milliseconds(20)) }
        let woken = outbox.leases.dropFirst().first.map { $0 - rung }
        await stop(outbox, loop, path)
        #expect(woken.map { $0 < .seconds(4) } == true, "the lease after the ring came \(String(describing: woken)) later")
    }
}
