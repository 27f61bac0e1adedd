import Logging
import NIOCore
import Synchronization

/// Connection-level notices (deadlines passed, evictions, requests the parser refused), rate
/// limited: a client churning connections must not flood the log. Each interval logs its first
/// `perInterval` notices as they come; the rest are counted by reason and logged as one summary
/// line when the next notice arrives after the interval.
package final class ConnectionNotices: Sendable {
    private struct Window {
        var start: NIODeadline
        var logged = 0
        var suppressed: [String: Int] = [:]
    }

    private let logger: Logger
    private let interval: TimeAmount
    private let perInterval: Int
    private let window: Mutex<Window>
    /// The monotonic clock the intervals are read from (a test's own, to end one at will).
    private let now: @Sendable () -> NIODeadline

    package init(
        logger: Logger,
        interval: TimeAmount = .seconds(10),
        perInterval: Int = 20,
        now: @escaping @Sendable () -> NIODeadline = { .now() }
    ) {
        self.logger = logger
        self.interval = interval
        self.perInterval = perInterval
        self.now = now
        window = Mutex(Window(start: now()))
    }

    /// Logs `connection closed: <reason>`, or counts it when this interval has logged enough.
    package func notice(_ reason: String) {
        let now = now()
        let (summary, log): ([String: Int], Bool) = window.withLock { window in
            var summary: [String: Int] = [:]
            if now - window.start >= interval {
                summary = window.suppressed
                window = Window(start: now)
            }
            guard window.logged < perInterval else {
                window.suppressed[reason, default: 0] += 1
                return (summary, false)
            }
            window.logged += 1
            return (summary, true)
        }
        if !summary.isEmpty {
            let counts = summary.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: "; ")
            logger.notice(
                "connection notices suppressed in the last interval: \(counts)",
                metadata: ["suppressed": "\(summary.values.reduce(0, +))"]
            )
        }
        if log { logger.notice("connection closed: \(reason)") }
    }
}
