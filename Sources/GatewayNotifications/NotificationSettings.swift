import GatewayCore

/// `notifications.*`: how the delivery loop sends webhook notifications, for every merchant.
package struct NotificationSettings: Sendable {
    /// Exponential backoff with jitter, until the horizon after a notification was queued.
    package var retry = NotificationRetryPolicy()
    package var connectTimeoutSeconds = 5
    /// A whole attempt, from connecting to the last byte of the (bounded) response body.
    package var timeoutSeconds = 10
    /// Hosts a production gateway may notify although they resolve to loopback, private,
    /// link-local or metadata addresses (a receiver on the operator's own network).
    package var allowedHosts: Set<String> = []
    /// How soon the delivery loop looks again for due notifications; while it finds none it
    /// backs off to once a second (or this, if longer).
    package var pollIntervalMilliseconds = 50
    /// Notifications one loop sends at once.
    package var concurrency = 16

    /// How long a lease lasts: longer than an attempt may take, so only a dead replica loses one.
    package var leaseSeconds: Int { timeoutSeconds * 2 + 5 }

    package init() {}
}
