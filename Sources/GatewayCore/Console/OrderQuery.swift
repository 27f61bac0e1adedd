import Foundation

/// The console's order search: one merchant's orders, newest first, narrowed by what is given.
package struct OrderQuery: Sendable, Hashable {
    package var merchantId: String
    package var orderId: String?
    package var createdFrom: Date?
    /// Exclusive.
    package var createdBefore: Date?
    package var status: OrderStatus?
    package var minAmountMinorUnits: Int64?
    package var maxAmountMinorUnits: Int64?
    /// The last four digits of the card or Apple Pay device number.
    package var cardLastFour: String?
    package var walletProvider: String?
    package var offset = 0
    package var limit = 25

    package init(merchantId: String) {
        self.merchantId = merchantId
    }
}

/// One order in a search's answer.
package struct OrderListing: Sendable, Hashable {
    package var orderId: String
    package var state: OrderState
    package var lastUpdatedTime: Date

    package init(orderId: String, state: OrderState, lastUpdatedTime: Date) {
        self.orderId = orderId
        self.state = state
        self.lastUpdatedTime = lastUpdatedTime
    }
}

/// A page of a search: up to `limit` orders, and whether more follow.
package struct OrderPage: Sendable, Hashable {
    package var orders: [OrderListing]
    package var hasMore: Bool

    package init(orders: [OrderListing], hasMore: Bool) {
        self.orders = orders
        self.hasMore = hasMore
    }
}
