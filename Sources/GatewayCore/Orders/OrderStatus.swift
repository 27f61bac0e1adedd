/// MPGS's `order.status`: where an order stands after its transactions.
package enum OrderStatus: String, Sendable, Hashable, CaseIterable {
    case authorized = "AUTHORIZED"
    case captured = "CAPTURED"
    case partiallyCaptured = "PARTIALLY_CAPTURED"
    case refunded = "REFUNDED"
    case partiallyRefunded = "PARTIALLY_REFUNDED"
    case cancelled = "CANCELLED"
    case verified = "VERIFIED"
    case failed = "FAILED"
    /// A browser payment the provider has not settled yet (issue 64): SUBMITTED or PENDING.
    case initiated = "INITIATED"
}
