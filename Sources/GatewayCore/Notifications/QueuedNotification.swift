/// The notification a transaction queues in the outbox, written in the same store transaction as
/// the transaction itself: where it goes, and whether the order chose that URL.
package struct QueuedNotification: Sendable, Hashable {
    package var url: String
    /// The URL came from `order.notificationUrl` (this request's or an earlier one's on the
    /// order): later transactions on the order go there too.
    package var isOrderURL: Bool

    package init(url: String, isOrderURL: Bool) {
        self.url = url
        self.isOrderURL = isOrderURL
    }

    /// The request's own URL wins, then the one the order chose earlier, then the merchant's.
    /// A merchant without notification settings has no secret to send: nothing is queued.
    package static func route(
        requestURL: String?,
        orderURL: String?,
        merchant: MerchantNotifications?
    ) -> QueuedNotification? {
        guard let merchant else { return nil }
        if let requestURL { return QueuedNotification(url: requestURL, isOrderURL: true) }
        if let orderURL { return QueuedNotification(url: orderURL, isOrderURL: true) }
        return merchant.url.map { QueuedNotification(url: $0, isOrderURL: false) }
    }
}
