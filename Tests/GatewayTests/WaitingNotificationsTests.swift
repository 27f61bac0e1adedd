import Foundation
import GatewayCore
import Testing

@testable import Gateway

/// The delivery loop's per-merchant share of its slots (issue 59, finding 6), alone.
@Suite("Waiting notifications")
struct WaitingNotificationsTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func notification(_ id: Int64, _ merchant: String) -> OutboxNotification {
        OutboxNotification(
            id: id,
            merchantId: merchant,
            orderId: "o\(id)",
            transactionId: "1",
            url: "https://shop.example/hook",
            status: .pending,
            attempts: 1,
            createdAt: now,
            nextAttemptAt: now,
            deliveredAt: nil,
            lastError: nil
        )
    }

    @Test("a merchant's share is a quarter of the slots, at least one")
    func shares() {
        #expect(WaitingNotifications.share(of: 16) == 4)
        #expect(WaitingNotifications.share(of: 3) == 1)
        #expect(WaitingNotifications.share(of: 256) == 64)
    }

    @Test("the oldest start first, but a merchant at its share waits while the others' start; a finished send frees its slot")
    func shareLimitsStarts() {
        var waiting = WaitingNotifications(share: 2)
        waiting.append((1...4).map { Self.notification($0, "SLOW") } + [Self.notification(5, "GOOD")], leaseUntil: Self.now + 30)
        var started: [Int64] = []
        while let next = waiting.start(attemptsEndBy: Self.now) { started.append(next.id) }
        #expect(started == [1, 2, 5])
        #expect(waiting.merchantsAtShare == ["SLOW"])
        #expect(!waiting.hasStartable && waiting.count == 2)
        waiting.finished("SLOW")
        #expect(waiting.hasStartable)
        #expect(waiting.start(attemptsEndBy: Self.now)?.id == 3)
        #expect(waiting.start(attemptsEndBy: Self.now) == nil)
    }

    @Test("a notification whose lease would end before its attempt is dropped, not started")
    func expiringLeasesDropped() {
        var waiting = WaitingNotifications(share: 4)
        waiting.append([Self.notification(1, "A")], leaseUntil: Self.now + 5)
        waiting.append([Self.notification(2, "A")], leaseUntil: Self.now + 30)
        #expect(waiting.start(attemptsEndBy: Self.now + 10)?.id == 2)
        #expect(waiting.count == 0)
    }
}
