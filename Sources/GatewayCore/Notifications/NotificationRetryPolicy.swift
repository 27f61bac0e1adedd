import Foundation

/// When a failed notification is tried again: exponential backoff from `initialDelay`, capped at
/// `maxDelay`, with full jitter on its upper half (so receivers coming back up are not hit by
/// every replica at once), until `horizon` after the notification was queued.
package struct NotificationRetryPolicy: Sendable, Hashable {
    package var initialDelay: TimeInterval
    package var maxDelay: TimeInterval
    package var horizon: TimeInterval

    package init(initialDelay: TimeInterval = 1, maxDelay: TimeInterval = 3600, horizon: TimeInterval = 72 * 3600) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.horizon = horizon
    }

    /// The time of the next attempt after `attempts` failed ones, or nil when it would fall
    /// past the horizon (the notification has failed).
    package func nextAttempt(
        afterAttempts attempts: Int,
        createdAt: Date,
        now: Date,
        random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Date? {
        let exponent = Double(max(0, attempts - 1))
        let ceiling = min(maxDelay, initialDelay * pow(2, min(exponent, 62)))
        let delay = random((ceiling / 2)...ceiling)
        let next = now.addingTimeInterval(delay)
        return next.timeIntervalSince(createdAt) <= horizon ? next : nil
    }
}
