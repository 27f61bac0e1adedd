import Foundation
import GatewayCore
import Testing

@testable import Gateway
@testable import GatewayNotifications

/// How the delivery loop shares its slots between merchants (issue 59, finding 6), alone.
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

    @Test("a merchant's share is a quarter of the slots and its cap three quarters, at least one each")
    func shares() {
        let sixteen = WaitingNotifications(concurrency: 16)
        #expect(sixteen.share == 4 && sixteen.cap == 12)
        let one = WaitingNotifications(concurrency: 1)
        #expect(one.share == 1 && one.cap == 1)
    }

    @Test("a merchant alone uses up to its cap; the slots past it are kept for the others")
    func aloneUpToTheCap() {
        var waiting = WaitingNotifications(concurrency: 16)
        waiting.append((1...20).map { Self.notification($0, "BUSY") }, leaseUntil: Self.now + 30)
        var started = 0
        while waiting.start(attemptsEndBy: Self.now) != nil { started += 1 }
        #expect(started == 12)
        #expect(waiting.merchantsAtCap == ["BUSY"] && !waiting.hasStartable)
        waiting.append([Self.notification(21, "GOOD")], leaseUntil: Self.now + 30)
        #expect(waiting.start(attemptsEndBy: Self.now)?.merchantId == "GOOD")
    }

    @Test("past its share, a merchant's older notifications wait while another merchant's start")
    func othersFirstPastTheShare() {
        var waiting = WaitingNotifications(concurrency: 8)  // share 2, cap 6
        waiting.append((1...4).map { Self.notification($0, "SLOW") } + [Self.notification(5, "GOOD")], leaseUntil: Self.now + 30)
        var started: [Int64] = []
        while let next = waiting.start(attemptsEndBy: Self.now) { started.append(next.id) }
        #expect(started == [1, 2, 5, 3, 4], "the third SLOW one waits for GOOD's")
        waiting.finished("SLOW")
        #expect(waiting.count == 0)
    }

    @Test("a notification whose lease would end before its attempt is dropped, not started")
    func expiringLeasesDropped() {
        var waiting = WaitingNotifications(concurrency: 16)
        waiting.append([Self.notification(1, "A")], leaseUntil: Self.now + 5)
        waiting.append([Self.notification(2, "A")], leaseUntil: Self.now + 30)
        #expect(waiting.start(attemptsEndBy: Self.now + 10)?.id == 2)
        #expect(waiting.count == 0)
    }
}
