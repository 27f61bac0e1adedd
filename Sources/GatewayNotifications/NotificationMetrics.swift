import Metrics
import Prometheus
import Synchronization

/// The delivery loop's figures, in the gateway's registry: delivered notifications, failed
/// attempts by cause, notifications failed for good, and the backlog (how many wait, and the
/// age of the oldest). Labels are causes only, never URLs, merchants or ids.
package final class NotificationMetrics: Sendable {
    private let factory: PrometheusMetricsFactory
    private let delivered: Metrics.Counter
    private let failed: Metrics.Counter
    private let pending: Metrics.Gauge
    private let oldestAge: Metrics.Gauge
    private let attemptFailures = Mutex<[String: Metrics.Counter]>([:])

    enum Names {
        static let delivered = "gateway_notifications_delivered_total"
        static let attemptFailures = "gateway_notification_attempt_failures_total"
        static let failed = "gateway_notifications_failed_total"
        static let pending = "gateway_notifications_pending"
        static let oldestAge = "gateway_notifications_oldest_pending_age_seconds"
    }

    package init(registry: PrometheusCollectorRegistry) {
        factory = PrometheusMetricsFactory(registry: registry)
        delivered = Counter(label: Names.delivered, factory: factory)
        failed = Counter(label: Names.failed, factory: factory)
        pending = Gauge(label: Names.pending, factory: factory)
        oldestAge = Gauge(label: Names.oldestAge, factory: factory)
    }

    func notificationDelivered() { delivered.increment() }

    func attemptFailed(cause: String) {
        let counter = attemptFailures.withLock { counters in
            if let counter = counters[cause] { return counter }
            let counter = Counter(label: Names.attemptFailures, dimensions: [("cause", cause)], factory: factory)
            counters[cause] = counter
            return counter
        }
        counter.increment()
    }

    func notificationFailed() { failed.increment() }

    func backlog(pending count: Int, oldestAgeSeconds: Double) {
        pending.record(count)
        oldestAge.record(oldestAgeSeconds)
    }
}
