import Foundation

/// One notification in the outbox, as the delivery loop and operators see it.
package struct OutboxNotification: Sendable, Hashable {
    package enum Status: String, Sendable, CaseIterable {
        /// Not yet delivered; retried until its horizon passes.
        case pending = "PENDING"
        /// A receiver answered 2xx.
        case delivered = "DELIVERED"
        /// Every attempt within the horizon failed; `gateway notifications redeliver` queues it again.
        case failed = "FAILED"
    }

    /// Increases in commit order: the `X-Notification-Id`, the same on every attempt.
    package var id: Int64
    package var merchantId: String
    package var orderId: String
    package var transactionId: String
    package var url: String
    package var status: Status
    /// Attempts begun so far (the current one included while it is leased).
    package var attempts: Int
    package var createdAt: Date
    package var nextAttemptAt: Date
    package var deliveredAt: Date?
    /// Why the last attempt failed (a cause name, never a secret or a body).
    package var lastError: String?

    package init(
        id: Int64,
        merchantId: String,
        orderId: String,
        transactionId: String,
        url: String,
        status: Status,
        attempts: Int,
        createdAt: Date,
        nextAttemptAt: Date,
        deliveredAt: Date?,
        lastError: String?
    ) {
        self.id = id
        self.merchantId = merchantId
        self.orderId = orderId
        self.transactionId = transactionId
        self.url = url
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.deliveredAt = deliveredAt
        self.lastError = lastError
    }
}

/// How many notifications wait, and since when: the backlog metrics.
package struct OutboxBacklog: Sendable, Hashable {
    package var pending: Int
    package var oldestPendingCreatedAt: Date?

    package init(pending: Int, oldestPendingCreatedAt: Date?) {
        self.pending = pending
        self.oldestPendingCreatedAt = oldestPendingCreatedAt
    }
}
