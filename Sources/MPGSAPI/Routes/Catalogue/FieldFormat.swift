import ApplePayToken
import Foundation
import GatewayCore

/// A catalogued field's format, as the API reference states it (see `transaction-request.catalogue`
/// for the spelling of each one).
enum FieldFormat: Sendable, Hashable {
    /// Characters from a set (nil: any), with a length range.
    case characters(CharacterRule, ClosedRange<Int>)
    case digits(ClosedRange<Int>)
    /// An integer written as digits, within a range.
    case numericText(ClosedRange<Int64>)
    case month
    /// Digits and one '.', of this length; `signed` also allows a leading '-'.
    case decimal(ClosedRange<Int>, signed: Bool)
    /// A decimal number up to `maximum` with at most `fractionDigits` decimals.
    case number(maximum: Double, fractionDigits: Int)
    case integer(ClosedRange<Int64>)
    case boolean
    case enumeration([String])
    /// Comma separated members of the list.
    case enumerationList([String])
    case email
    case phone
    case url
    case date
    case dateTime
    case time
    case hex(ClosedRange<Int>)
    case base64(ClosedRange<Int>)
    case json(ClosedRange<Int>)
    case regex(String)
    /// Any JSON value: the reading code checks it where it is used.
    case any

    enum CharacterRule: String, Sendable, Hashable {
        case text, ascii, alnum, alnumspace, postcode, bankaccount, agentname, upper

        func allows(_ scalar: Unicode.Scalar) -> Bool {
            // ASCII letters and digits, by value: CharacterSet's lookup cost more than the rest of a check.
            let alphanumeric = ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
            switch self {
            case .text: return true
            case .ascii: return scalar.isASCII
            case .alnum: return alphanumeric
            case .alnumspace: return alphanumeric || scalar == " "
            case .postcode: return alphanumeric || scalar == " " || scalar == "-"
            case .bankaccount: return alphanumeric || " -/".unicodeScalars.contains(scalar)
            case .agentname: return alphanumeric || " .,-'&/\\()".unicodeScalars.contains(scalar)
            case .upper: return ("A"..."Z").contains(scalar)
            }
        }

        var description: String {
            switch self {
            case .text: "characters"
            case .ascii: "ASCII characters"
            case .alnum: "characters 0-9, a-z, A-Z"
            case .alnumspace: "characters 0-9, a-z, A-Z and space"
            case .postcode: "characters 0-9, a-z, A-Z, space and '-'"
            case .bankaccount: "characters 0-9, a-z, A-Z, space, '-' and '/'"
            case .agentname: "characters 0-9, a-z, A-Z, space and . , - ' & / \\ ( )"
            case .upper: "characters A-Z"
            }
        }
    }
}

extension FieldFormat {
    /// Reads the catalogue's spelling, e.g. `text:1-100`, `enum:A|B`, `number:1000000000000:3`.
    init?(spelling: String) {
        let (name, argument) =
            spelling.firstIndex(of: ":").map { (String(spelling[..<$0]), String(spelling[spelling.index(after: $0)...])) }
            ?? (spelling, "")
        func range() -> ClosedRange<Int>? {
            guard let bounds = Self.bounds(argument), let low = Int(exactly: bounds.lowerBound),
                let high = Int(exactly: bounds.upperBound)
            else { return nil }
            return low...high
        }
        if let rule = CharacterRule(rawValue: name) {
            guard let range = range() else { return nil }
            self = .characters(rule, range)
            return
        }
        switch name {
        case "digits":
            guard let range = range() else { return nil }
            self = .digits(range)
        case "numtext":
            guard let bounds = Self.bounds(argument) else { return nil }
            self = .numericText(bounds)
        case "month": self = .month
        case "decimal":
            guard let range = range() else { return nil }
            self = .decimal(range, signed: false)
        case "signeddecimal":
            guard let range = range() else { return nil }
            self = .decimal(range, signed: true)
        case "number":
            let parts = argument.split(separator: ":")
            guard parts.count == 2, let maximum = Double(parts[0]), let digits = Int(parts[1]) else { return nil }
            self = .number(maximum: maximum, fractionDigits: digits)
        case "integer":
            guard let bounds = Self.bounds(argument) else { return nil }
            self = .integer(bounds)
        case "boolean": self = .boolean
        case "enum": self = .enumeration(argument.split(separator: "|").map(String.init))
        case "enumlist": self = .enumerationList(argument.split(separator: "|").map(String.init))
        case "email": self = .email
        case "phone": self = .phone
        case "url": self = .url
        case "date": self = .date
        case "datetime": self = .dateTime
        case "time": self = .time
        case "hex":
            guard let range = range() else { return nil }
            self = .hex(range)
        case "base64":
            guard let range = range() else { return nil }
            self = .base64(range)
        case "json":
            guard let range = range() else { return nil }
            self = .json(range)
        case "regex":
            guard !argument.isEmpty else { return nil }
            self = .regex(argument)
        case "any": self = .any
        default: return nil
        }
    }

    /// `MIN-MAX`, where MIN may be negative (`-840-720`).
    private static func bounds(_ text: String) -> ClosedRange<Int64>? {
        guard let separator = text.dropFirst().firstIndex(of: "-"),
            let low = Int64(text[..<separator]), let high = Int64(text[text.index(after: separator)...]), low <= high
        else { return nil }
        return low...high
    }
}
