/// The last guard between a log line and a card number: whatever a client put in an id, a header
/// or a message, what looks like a card number is masked to its first six and last four digits.
///
/// Two shapes count:
/// - a run of 13 or more ASCII digits, whatever its check digit (logging a long number masked
///   costs nothing; logging a card number costs a breach);
/// - 13 to 19 digits written in groups separated by single spaces or dashes
///   (`4111-1111-1111-1111`, `5123 4500 0000 0008`) that pass the Luhn check, also when the groups
///   are part of a longer run (`order-4111-1111-1111-1111-2`). The check keeps dates, phone
///   numbers and version strings readable.
enum CardNumberRedaction {
    static func mask(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 13 else { return text }
        var masked = bytes
        var changed = false
        var index = 0
        while index < bytes.count {
            guard isDigit(bytes[index]) else {
                index += 1
                continue
            }
            let groups = digitGroups(in: bytes, from: index)
            changed = maskCardNumbers(in: groups, of: &masked) || changed
            index = groups.last!.upperBound
        }
        return changed ? String(decoding: masked, as: UTF8.self) : text
    }

    /// The digit groups starting at `start`, each joined to the next by one space or dash.
    private static func digitGroups(in bytes: [UInt8], from start: Int) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var index = start
        while true {
            let groupStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            groups.append(groupStart..<index)
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "-"),
                isDigit(bytes[index + 1])
            else { return groups }
            index += 1
        }
    }

    /// Masks long single groups, and every span of whole groups holding a Luhn-valid 13-19 digits.
    private static func maskCardNumbers(in groups: [Range<Int>], of bytes: inout [UInt8]) -> Bool {
        var changed = false
        for group in groups where group.count >= 13 {
            maskDigits(Array(group), in: &bytes)
            changed = true
        }
        guard groups.count > 1 else { return changed }
        for first in groups.indices {
            var positions: [Int] = []
            for group in groups[first...] {
                positions += group
                if positions.count > 19 { break }
                if positions.count >= 13, passesLuhn(positions.map { bytes[$0] }) {
                    maskDigits(positions, in: &bytes)
                    changed = true
                }
            }
        }
        return changed
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
}
