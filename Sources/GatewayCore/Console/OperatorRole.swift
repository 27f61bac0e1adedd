/// What a Merchant Administration operator may do: an admin acts on orders, a viewer only looks.
package enum OperatorRole: String, Sendable, Hashable, CaseIterable {
    case admin
    case viewer

    /// CAPTURE, VOID and REFUND from the console.
    package var mayActOnOrders: Bool { self == .admin }
}
