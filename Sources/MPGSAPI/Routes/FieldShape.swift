import GatewayCore

/// What a request body may carry, name by name. Unknown names are rejected ("Unexpected
/// parameter"); known objects that are empty or unused by the operation are accepted and ignored,
/// as the real gateway does. The transaction request's shapes come from ``RequestCatalogue``.
indirect enum FieldShape: Sendable {
    /// A string; numbers are accepted and read as their text ("05" and 5 alike).
    case text
    /// Any JSON value (checked where it is used).
    case any
    /// A catalogued field, checked against its format.
    case value(CatalogueField)
    /// An object with these members; `members`, when given, is the shape of any other member
    /// (names the merchant chooses, such as `order.custom.salesRegion`).
    case object([String: FieldShape], members: FieldShape? = nil)
    case array(FieldShape)
    /// A name only other operations take: accepted while it carries nothing.
    case elsewhere
}
