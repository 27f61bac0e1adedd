import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

extension FieldFormat {
    /// Checks a present value; a wrong one is an MPGS field error naming the field. A secret
    /// field's value is never quoted. An empty string counts as absent, as `null` does.
    /// `field` is spelt out only for an error.
    func check(_ value: JSONValue, field path: @autoclosure () -> String, secret: Bool) throws(GatewayError) {
        func wrong(_ text: String, _ reason: String) -> GatewayError {
            let field = path()
            return secret ? GatewayError.invalid(field, "Value is invalid. \(reason)") : GatewayError.invalidValue(field, text, reason)
        }
        switch self {
        case .any:
            return
        case .boolean:
            switch value {
            case .bool: return
            case .string(let text) where ["true", "false"].contains(text.lowercased()): return
            default: throw wrong(Self.describe(value), "Must be a JSON boolean, true or false")
            }
        case .integer(let range):
            let number: Int64? =
                switch value {
                case .integer(let number): number
                case .string(let text): Int64(text)
                default: nil
                }
            guard let number, range.contains(number) else {
                throw wrong(Self.describe(value), "Must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
        default:
            let text: String
            switch value {
            case .string(let string): text = string
            case .integer(let number): text = String(number)
            case .double(let number): text = number.description
            default:
                let field = path()
                throw GatewayError.invalid(field, "Value for '\(field)' must be a string")
            }
            if text.isEmpty { return }
            if let reason = problem(with: text) { throw wrong(text, reason) }
        }
    }

    /// Why `text` does not have this format, or nil when it has.
    func problem(with text: String) -> String? {
        let scalars = text.unicodeScalars
        func length(_ range: ClosedRange<Int>) -> Bool { range.contains(Self.characterCount(text)) }
        func lengthText(_ range: ClosedRange<Int>) -> String {
            range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
        }
        switch self {
        case .characters(let rule, let range):
            guard length(range), scalars.allSatisfy(rule.allows) else {
                return "Must be \(lengthText(range)) \(rule.description)"
            }
        case .digits(let range):
            guard text.utf8.allSatisfy(\.isASCIIDigit), length(range) else { return "Must be \(lengthText(range)) digits" }
        case .numericText(let range):
            guard text.utf8.allSatisfy(\.isASCIIDigit), let number = Int64(text), range.contains(number) else {
                return "Must be a number from \(range.lowerBound) to \(range.upperBound) written as digits"
            }
        case .month:
            guard text.utf8.allSatisfy(\.isASCIIDigit), let month = Int(text), (1...12).contains(month) else {
                return "Month must be a number from 1 to 12"
            }
        case .decimal(let range, let signed):
            let unsigned = signed && text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
            guard length(range), Self.fractionDigits(ofDecimal: unsigned) != nil else {
                return "Must be a decimal number (digits and '.') of \(lengthText(range)) characters"
            }
        case .number(let maximum, let fractionDigits):
            guard let fraction = Self.fractionDigits(ofDecimal: text.utf8[...]), let number = Double(text), number <= maximum,
                fraction <= fractionDigits
            else {
                return "Must be a decimal number up to \(Int64(maximum)) with at most \(fractionDigits) decimal places"
            }
        case .enumeration(let members):
            guard members.contains(text) else { return "Must be one of \(members.joined(separator: ", "))" }
        case .enumerationList(let members):
            guard text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy({ members.contains(String($0)) })
            else { return "Must be a comma separated list of \(members.joined(separator: ", "))" }
        case .email:
            guard Self.isEmail(text) else { return "Must be an email address" }
        case .phone:
            guard Self.isPhone(text) else {
                return "Must be a telephone number in ITU-T E.123 format, e.g. +1 607 1234 5678, of at most 15 digits"
            }
        case .url:
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host?.isEmpty == false
            else { return "Must be a valid URL" }
        case .date:
            guard Self.matches(text, #"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"#) else {
                return "Must be a date in ISO 8601 extended format, yyyy-mm-dd"
            }
        case .dateTime:
            guard Self.matches(text, #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)"#) else {
                return "Must be an ISO 8601 date and time, YYYY-MM-DDThh:mm:ss.SSSZ"
            }
        case .time:
            guard Self.matches(text, #"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?(Z|[+-]\d{2}(:\d{2})?)"#) else {
                return "Must be a time in ISO 8601 extended format, hh:mm[:ss]Z or hh:mm[:ss](+/-)hh[:mm]"
            }
        case .hex(let range):
            guard length(range), scalars.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
                return "Must be \(lengthText(range)) hexadecimal characters"
            }
        case .base64(let range):
            guard length(range), Data(base64Encoded: Self.padded(text)) != nil || Self.isBase64URL(text) else {
                return "Must be base64 of \(lengthText(range)) characters"
            }
        case .json(let range):
            guard length(range), (try? JSONValue(parsing: Array(text.utf8))) != nil else {
                return "Must be JSON text of \(lengthText(range)) characters"
            }
        case .regex(let pattern):
            guard Self.matches(text, pattern) else { return "Must match \(pattern)" }
        case .boolean, .integer, .any:
            return nil
        }
        return nil
    }

    /// How many digits follow the '.' (0 without one) when `bytes` are digits, then optionally a
    /// '.' and more digits; nil when they are not. Read as bytes: a byte outside ASCII fails it
    /// as the Character holding it would, and Characters cost grapheme breaking on every field.
    private static func fractionDigits(ofDecimal bytes: Substring.UTF8View) -> Int? {
        var integerDigits = 0
        var fractionDigits = 0
        var sawPoint = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
            } else if byte.isASCIIDigit {
                if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
            } else {
                return nil
            }
        }
        return integerDigits > 0 && (!sawPoint || fractionDigits > 0) ? fractionDigits : nil
    }

    /// `text.count`, counted from the bytes when they are ASCII: there every byte is a Character
    /// but for CR LF, which is one.
    static func characterCount(_ text: String) -> Int {
        var count = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.count }
            if !(byte == 0x0A && previous == 0x0D) { count += 1 }
            previous = byte
        }
        return count
    }

    /// A generous subset of RFC 2822 addresses, longer than 3 characters.
    private static func isEmail(_ text: String) -> Bool {
        text.count > 3 && text.count <= 256
            && matches(
                text,
                #"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"#
            )
    }

    /// ITU-T E.123: '+', a country code, a space and the national number (single spaces allowed
    /// inside), at most 15 digits in all.
    private static func isPhone(_ text: String) -> Bool {
        matches(text, #"\+\d{1,3} \d+( \d+)*"#) && text.filter(\.isASCIIDigit).count <= 15
    }

    private static func padded(_ text: String) -> String {
        text.count % 4 == 0 ? text : text + String(repeating: "=", count: 4 - text.count % 4)
    }

    private static func isBase64URL(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_=".unicodeScalars.contains($0)) }
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        CompiledPatterns.shared.matches(text, pattern)
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): number.description
        case .bool(let flag): flag ? "true" : "false"
        default: String(decoding: value.serialized(), as: UTF8.self)
        }
    }
}
