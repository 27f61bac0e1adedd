import GatewayCore

// The store and simulator tests name statuses, types and codes as MPGS spells them on the
// wire, which is also how the stores keep them: "CAPTURED" rather than `.captured`.

extension OrderStatus: ExpressibleByStringLiteral {}
extension TransactionType: ExpressibleByStringLiteral {}
extension GatewayCode: ExpressibleByStringLiteral {}
extension TransactionResult: ExpressibleByStringLiteral {}
extension APIOperation: ExpressibleByStringLiteral {}

extension RawRepresentable where RawValue == String, Self: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        guard let known = Self(rawValue: value) else { fatalError("'\(value)' is not a \(Self.self)") }
        self = known
    }
}
