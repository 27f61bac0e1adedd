/// A positive amount in a currency's minor units (cents, yen, fils), parsed from the decimal text
/// MPGS clients send ("61.00", "5656", 61.5) without going through floating point.
package struct Amount: Sendable, Hashable, Comparable {
    package let minorUnits: Int64
    package let currency: Currency

    package init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    package enum ParseError: Error {
        /// Not a decimal number, or more decimals than the currency has.
        case invalid
        /// Zero: MPGS has its own message for it.
        case zero
    }

    package init(parsing text: String, currency: Currency) throws(ParseError) {
        // On the UTF-8 bytes: every AUTHORIZE parses one, and Character-wise splitting cost more
        // than the rest of the parse.
        let bytes = Array(text.utf8)
        let point = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(point ?? bytes.endIndex)]
        let fraction = point.map { bytes[($0 + 1)...] } ?? []
        guard !whole.isEmpty, whole.count <= 12, whole.allSatisfy(Self.isDigit), fraction.allSatisfy(Self.isDigit),
            point == nil || !fraction.isEmpty
        else { throw .invalid }
        // Trailing zeros beyond the currency's digits are harmless ("61.000" USD); others are not.
        let significant = fraction.prefix(fraction.count - fraction.reversed().prefix { $0 == UInt8(ascii: "0") }.count)
        guard significant.count <= currency.exponent else { throw .invalid }
        var minor: Int64 = 0
        for digit in whole + significant { minor = minor * 10 + Int64(digit - UInt8(ascii: "0")) }
        for _ in significant.count..<currency.exponent { minor *= 10 }
        guard minor > 0 else { throw .zero }
        self.init(minorUnits: minor, currency: currency)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The amount in major units (56.56 for 5656 US cents).
    package var majorUnits: Double {
        Double(minorUnits) / Double(Self.powerOfTen(currency.exponent))
    }

    /// The amount in major units as text with the currency's digits, e.g. "56.56".
    package var text: String {
        guard currency.exponent > 0 else { return String(minorUnits) }
        let scale = Self.powerOfTen(currency.exponent)
        let fraction = String(minorUnits % scale)
        return "\(minorUnits / scale)." + String(repeating: "0", count: currency.exponent - fraction.count) + fraction
    }

    /// Whether the amount is a whole number of major units equal to `value` (5656.00 for 5656).
    package func isWhole(_ value: Int64) -> Bool {
        minorUnits == value * Self.powerOfTen(currency.exponent)
    }

    package static func < (lhs: Amount, rhs: Amount) -> Bool { lhs.minorUnits < rhs.minorUnits }

    package static func powerOfTen(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }
}

extension Character {
    /// By its ASCII value: comparing Characters compares strings, which is far slower.
    package var isASCIIDigit: Bool { asciiValue.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
}
