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

    /// Waits (bounded) until the outbox was asked for `count` leases; whether it was.
    func waitForLeases(_ outbox: CountingOutbox, _ count: Int, within limit: Duration = .seconds(120)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while outbox.leases.count < count {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test("an idle loop backs off from the 50 ms poll to a lease a second")
    func idleLoopBacksOff() async throws {
        let settings = NotificationSettings()
        #expect(settings.pollIntervalMilliseconds == 50)
        let (outbox, _, loop, path) = try startLoop(settings)
        // The first lease, then waits of 100, 200, 400 and 800 ms, then a second each: seven
        // leases, without a ring. The gaps are measured, not counted in a window: a timer fires
        // late on a loaded machine, never early (a full suite on two cores once held the first
        // for 15 s, another more than 30 s), so only the lower bound is checked; a loop that
        // stopped looking never reaches seven leases.
        let leased = try await waitForLeases(outbox, 7)
        let times = outbox.leases
        await stop(outbox, loop, path)
        try #require(leased, "\(times.count) leases in 120 s")
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        for (index, gap) in gaps.prefix(6).enumerated() {
            let wait = min(Duration.milliseconds(100 << index), .seconds(1))
            #expect(gap >= wait * 0.9, "lease \(index + 2) came \(gap) after the one before, not after \(wait): \(gaps)")
        }
    }

    @Test("a ring wakes an idle loop at once, not at its next poll")
    func ringWakesTheLoop() async throws {
        var settings = NotificationSettings()
        settings.pollIntervalMilliseconds = 10_000
        let (outbox, doorbell, loop, path) = try startLoop(settings)
        // Its first lease, then a wait of 10 s that only the ring can cut short (a ring before the
        // wait begins ends it at once too).
        #expect(try await waitForLeases(outbox, 1))
        #expect(outbox.leases.count == 1)
        let rung = ContinuousClock.now
        doorbell.ring()
        _ = try await waitForLeases(outbox, 2, within: .seconds(8))
        let woken = outbox.leases.dropFirst().first.map { $0 - rung }
        await stop(outbox, loop, path)
        #expect(woken.map { $0 < .seconds(4) } == true, "the lease after the ring came \(String(describing: woken)) later")
    }
}
