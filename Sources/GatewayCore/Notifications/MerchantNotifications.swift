/// Where a merchant's webhook notifications go and the secret they carry
/// (`merchant.<ID>.notifications.*`). Without it the merchant gets none.
package struct MerchantNotifications: Sendable, Hashable {
    /// The merchant's URL; an order's `order.notificationUrl` overrides it. Nil: only orders
    /// that name a URL are notified.
    package var url: String?
    /// Sent as `X-Notification-Secret`, so the receiver knows the gateway sent it.
    package var secret: String

    package init(url: String?, secret: String) {
        self.url = url
        self.secret = secret
    }
}
