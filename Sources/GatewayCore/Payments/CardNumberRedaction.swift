/// The last guard between a log line (or a stored free-text echo) and a card number: whatever a
/// client put in an id, a header, a path or a description, what looks like a card number is
/// masked to its first six and last four digits.
///
/// Two shapes count:
/// - a run of 13 or more ASCII digits, whatever its check digit (logging a long number masked
///   costs nothing; logging a card number costs a breach);
/// - 12 to 19 digits in groups that pass the Luhn check, where groups are joined by separators of
///   one to three characters that are neither letters nor digits (`4111.1111_1111~1111`,
///   `5123--4500-0000-0008`, `4111+1111 1111 1111`) or by percent-escapes of such characters
///   (`4111%201111%201111%201111`, as a path carries spaces), also when the groups are part of a
///   longer text (`order-4111-1111-1111-1111-2`). The check keeps dates, phone numbers and version
///   strings readable.
///
/// A UUID written the usual way (8-4-4-4-12 hex digits) is left whole: request ids, order
/// references and temporary paths are UUIDs, about one in a thousand has leading all-digit groups
/// that pass the check, and masking it would break the id (or a path printed for the operator to
/// copy). No group of a UUID has 13 digits, so no long run goes unmasked this way.
package enum CardNumberRedaction {
    package static func mask(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 12 else { return text }
        let uuids = uuidRanges(in: bytes)
        var masked = bytes
        var changed = false
        var index = 0
        while index < bytes.count {
            if let uuid = uuids.first(where: { $0.contains(index) }) {
                index = uuid.upperBound
                continue
            }
            guard isDigit(bytes[index]) else {
                index += 1
                continue
            }
            let groups = digitGroups(in: bytes, from: index, before: uuids)
            changed = maskCardNumbers(in: groups, of: &masked) || changed
            index = groups.last!.upperBound
        }
        return changed ? String(decoding: masked, as: UTF8.self) : text
    }

    /// The digit groups starting at `start`, each joined to the next by a separator; a UUID ends them.
    private static func digitGroups(in bytes: [UInt8], from start: Int, before uuids: [Range<Int>]) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var index = start
        while true {
            let groupStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            groups.append(groupStart..<index)
            guard let next = separatorEnd(in: bytes, from: index), next < bytes.count, isDigit(bytes[next]),
                !uuids.contains(where: { $0.contains(next) })
            else { return groups }
            index = next
        }
    }

    /// Where the text holds a UUID (8-4-4-4-12 hex digits joined by hyphens) standing on its own:
    /// no letter or digit touches either end.
    private static func uuidRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while start + 36 <= bytes.count {
            if (start == 0 || !isAlphanumeric(bytes[start - 1])) && isUUID(bytes[start..<start + 36])
                && (start + 36 == bytes.count || !isAlphanumeric(bytes[start + 36]))
            {
                ranges.append(start..<start + 36)
                start += 36
            } else {
                start += 1
            }
        }
        return ranges
    }

    private static func isUUID(_ candidate: ArraySlice<UInt8>) -> Bool {
        let start = candidate.startIndex
        let hyphen = UInt8(ascii: "-")
        // The hyphens first: they rule out almost every position of a long text at once.
        guard candidate[start + 8] == hyphen, candidate[start + 13] == hyphen, candidate[start + 18] == hyphen,
            candidate[start + 23] == hyphen
        else { return false }
        return candidate.indices.allSatisfy { index in
            switch index - start {
            case 8, 13, 18, 23: candidate[index] == UInt8(ascii: "-")
            default: hexValue(candidate[index]) != nil
            }
        }
    }

    /// Where a separator of one to three units starting at `start` ends (a unit: one byte that is
    /// neither a letter nor a digit, or a percent-escape of one); nil when there is none.
    private static func separatorEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        var units = 0
        while units < 3, index < bytes.count {
            if let escaped = percentEscapeEnd(in: bytes, at: index) {
                index = escaped
            } else if !isAlphanumeric(bytes[index]), bytes[index] < 0x80 {
                index += 1
            } else {
                break
            }
            units += 1
        }
        return units > 0 ? index : nil
    }

    /// `%XX` that decodes to an ASCII character that is neither a letter nor a digit.
    private static func percentEscapeEnd(in bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        else { return nil }
        let decoded = high << 4 | low
        return decoded < 0x80 && !isAlphanumeric(decoded) ? index + 3 : nil
    }

    /// Masks long single groups, and every span of whole groups holding a Luhn-valid 12-19 digits.
    private static func maskCardNumbers(in groups: [Range<Int>], of bytes: inout [UInt8]) -> Bool {
        var changed = false
        for group in groups where group.count >= 13 {
            maskDigits(Array(group), in: &bytes)
            changed = true
        }
        for first in groups.indices {
            var positions: [Int] = []
            for (offset, group) in groups[first...].enumerated() {
                positions += group
                if positions.count > 19 { break }
                // Two groups joined by one decimal point are a number with a fraction (an epoch
                // time, an amount), not a card number written in groups.
                if offset == 1, isDecimalPoint(between: groups[first], group, in: bytes) { continue }
                if positions.count >= 12, passesLuhn(positions.map { bytes[$0] }) {
                    maskDigits(positions, in: &bytes)
                    changed = true
                }
            }
        }
        return changed
    }

    /// Whether `first` and `second` are joined by a single `.` and nothing else.
    private static func isDecimalPoint(between first: Range<Int>, _ second: Range<Int>, in bytes: [UInt8]) -> Bool {
        second.lowerBound == first.upperBound + 1 && bytes[first.upperBound] == UInt8(ascii: ".")
    }

    /// Keeps the first six and last four of the digits at `positions`; separators stay as written.
    private static func maskDigits(_ positions: [Int], in bytes: inout [UInt8]) {
        for position in positions.dropFirst(6).dropLast(4) { bytes[position] = UInt8(ascii: "x") }
    }

    private static func passesLuhn(_ digits: [UInt8]) -> Bool {
        guard digits.allSatisfy(isDigit) else { return false }  // already masked by a longer span
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            var value = Int(digit - UInt8(ascii: "0"))
            if offset % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
