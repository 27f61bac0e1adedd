import Foundation
import GatewayCore

/// How the console spells times and amounts.
enum ConsoleFormat {
    static func time(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().time(includingFractionalSeconds: false))
    }

    static func amount(_ minorUnits: Int64, _ currencyCode: String) -> String {
        guard let currency = Currency(code: currencyCode) else { return "\(minorUnits) \(currencyCode)" }
        return "\(Amount(minorUnits: minorUnits, currency: currency).text) \(currencyCode)"
    }

    /// A path segment, so an order id with `/`, `?`, `%` or `+` still names its order: everything
    /// but RFC 3986's unreserved ASCII is escaped, once (`.alphanumerics` would let non-ASCII
    /// letters through raw). The routes decode it once: ``GatewayRequestContext/pathSegment(_:)``.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
