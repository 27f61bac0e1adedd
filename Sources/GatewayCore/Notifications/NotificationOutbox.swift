import Foundation

/// The transactional outbox: notifications queued with their transactions (see
/// ``TransactionRecord/notification``), leased by one delivery loop at a time, and marked
/// delivered or failed. Both stores keep it beside the transactions; they decide nothing.
package protocol NotificationOutbox: Sendable {
    /// The URL an earlier transaction on the order chose with `order.notificationUrl`, if any.
    func orderNotificationURL(merchantId: String, orderId: String) async throws -> String?

    /// Leases up to `limit` pending notifications that are due at `now` and not leased by a
    /// live lease, at most the oldest pending one of each order (so an order's notifications
    /// go in transaction order), none of `skippingMerchants` (those already using their share of
    /// the delivery loop's slots: their notifications wait here, and others' go), until
    /// `leaseUntil`; each counts one more attempt.
    func leaseNotifications(
        owner: String,
        now: Date,
        leaseUntil: Date,
        limit: Int,
        skippingMerchants: Set<String>
    ) async throws -> [OutboxNotification]

    /// 2xx answers: delivered, in one write for a batch. Returns the ids marked; one missing
    /// lost its lease (another loop took it over).
    func notificationsDelivered(ids: [Int64], owner: String, at time: Date) async throws -> Set<Int64>

    /// A failed attempt: retried at `retryAt`, or failed for good when that is nil.
    func notificationAttemptFailed(id: Int64, owner: String, cause: String, retryAt: Date?) async throws -> Bool

    /// The newest notifications first, optionally of one merchant and of one status.
    func notifications(merchantId: String?, status: OutboxNotification.Status?, limit: Int) async throws -> [OutboxNotification]

    func notification(id: Int64) async throws -> OutboxNotification?

    /// Queues a notification again (any status), due at `time`, its attempts counted afresh.
    func redeliverNotification(id: Int64, at time: Date) async throws -> Bool

    func notificationBacklog() async throws -> OutboxBacklog
}

extension NotificationOutbox {
    /// A lease that skips no merchant.
    package func leaseNotifications(owner: String, now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxNotification] {
        try await leaseNotifications(owner: owner, now: now, leaseUntil: leaseUntil, limit: limit, skippingMerchants: [])
    }
}
