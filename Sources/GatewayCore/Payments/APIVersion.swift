/// The MPGS API version a client called (`/api/rest/version/{n}`), read once where the path is
/// read: downstream code compares numbers, never re-parses text.
package struct APIVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The versions this gateway answers.
    package static let supported = 39...100
    package static let latest = APIVersion(checked: supported.upperBound)

    package let number: Int

    /// The version a path component names: digits only, no sign or leading zero, and supported.
    package init?(_ text: some StringProtocol) {
        guard let number = Int(text), String(number) == text, Self.supported.contains(number) else { return nil }
        self.number = number
    }

    private init(checked number: Int) {
        self.number = number
    }

    package var description: String { String(number) }

    package static func < (lhs: APIVersion, rhs: APIVersion) -> Bool { lhs.number < rhs.number }
}
