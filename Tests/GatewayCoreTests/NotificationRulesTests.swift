import Foundation
import Testing

@testable import GatewayCore

/// Where a transaction's notification goes, and when a failed one is tried again.
@Suite("Notification rules")
struct NotificationRulesTests {
    static let merchant = MerchantNotifications(url: "https://merchant.example/hook", secret: "0123456789abcdef")

    @Test("the request's URL wins, then the order's, then the merchant's; no settings, no notification")
    func routing() {
        #expect(
            QueuedNotification.route(requestURL: "https://a.example/x", orderURL: "https://b.example/y", merchant: Self.merchant)
                == QueuedNotification(url: "https://a.example/x", isOrderURL: true)
        )
        #expect(
            QueuedNotification.route(requestURL: nil, orderURL: "https://b.example/y", merchant: Self.merchant)
                == QueuedNotification(url: "https://b.example/y", isOrderURL: true)
        )
        #expect(
            QueuedNotification.route(requestURL: nil, orderURL: nil, merchant: Self.merchant)
                == QueuedNotification(url: "https://merchant.example/hook", isOrderURL: false)
        )
        #expect(QueuedNotification.route(requestURL: "https://a.example/x", orderURL: nil, merchant: nil) == nil)
        let noURL = MerchantNotifications(url: nil, secret: "0123456789abcdef")
        #expect(QueuedNotification.route(requestURL: nil, orderURL: nil, merchant: noURL) == nil)
    }

    @Test("backoff doubles from the initial delay, is capped, jittered within its upper half, and stops at the horizon")
    func backoff() throws {
        let policy = NotificationRetryPolicy(initialDelay: 2, maxDelay: 60, horizon: 300)
        let created = Date(timeIntervalSince1970: 1_000)
        let upper: (ClosedRange<Double>) -> Double = { $0.upperBound }
        let lower: (ClosedRange<Double>) -> Double = { $0.lowerBound }
        #expect(policy.nextAttempt(afterAttempts: 1, createdAt: created, now: created, random: upper) == created.addingTimeInterval(2))
        #expect(policy.nextAttempt(afterAttempts: 1, createdAt: created, now: created, random: lower) == created.addingTimeInterval(1))
        #expect(policy.nextAttempt(afterAttempts: 4, createdAt: created, now: created, random: upper) == created.addingTimeInterval(16))
        #expect(policy.nextAttempt(afterAttempts: 30, createdAt: created, now: created, random: upper) == created.addingTimeInterval(60))
        // Past the horizon: failed.
        #expect(policy.nextAttempt(afterAttempts: 9, createdAt: created, now: created.addingTimeInterval(290), random: upper) == nil)
        // The real jitter stays within the range.
        for _ in 0..<100 {
            let next = try #require(policy.nextAttempt(afterAttempts: 3, createdAt: created, now: created))
            #expect((4...8).contains(next.timeIntervalSince(created)))
        }
    }
}
