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

    /// A path segment, so an order id with `/` or `?` still names its order.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
