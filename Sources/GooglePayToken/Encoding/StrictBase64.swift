import Foundation

/// Standard base64 read one way only: every token field that is base64 has exactly one text for
/// its bytes, so no edit of an unsigned field (the signatures) can leave the token valid.
///
/// The `=` padding may be absent (it carries nothing) or complete, never partial; unused bits must
/// be zero and nothing but the alphabet may appear. Decoded from the string's own bytes into one
/// array: a token's fields are read on every payment, and Foundation's decoder, with an encoding
/// back to check the text was canonical, cost several allocations per field.
enum StrictBase64 {
    static let maxTextBytes = 1 << 20

    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard !utf8.isEmpty, utf8.count <= maxTextBytes else { return nil }
        var count = utf8.count
        while count > 0, utf8.count - count < 2, utf8[count - 1] == UInt8(ascii: "=") { count -= 1 }
        let remainder = count % 4
        // 4n+1 sextets cannot be; padding, if any, completes the last quartet.
        guard remainder != 1, count == utf8.count || (count + (4 - remainder) % 4 == utf8.count && remainder != 0) else {
            return nil
        }
        return sextets.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let decoded = [UInt8](unsafeUninitializedCapacity: count / 4 * 3 + 2) { output, initialized in
                var written = 0
                var start = 0
                while start + 4 <= count {
                    let first = table[Int(utf8[start])]
                    let second = table[Int(utf8[start + 1])]
                    let third = table[Int(utf8[start + 2])]
                    let fourth = table[Int(utf8[start + 3])]
                    guard (first | second | third | fourth) < 64 else {
                        valid = false
                        break
                    }
                    let quartet = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
                    output[written] = UInt8(truncatingIfNeeded: quartet >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: quartet >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: quartet)
                    written += 3
                    start += 4
                }
                if valid, remainder > 0 {
                    var tail: UInt32 = 0
                    var seen: UInt8 = 0
                    for index in start..<count {
                        let sextet = table[Int(utf8[index])]
                        seen |= sextet
                        tail = tail << 6 | UInt32(sextet)
                    }
                    // Two sextets carry one byte and four unused bits, three carry two and two.
                    let unusedBits = remainder == 2 ? 4 : 2
                    if seen >= 64 || tail & (1 << unusedBits - 1) != 0 {
                        valid = false
                    } else {
                        tail >>= UInt32(unusedBits)
                        if remainder == 3 {
                            output[written] = UInt8(truncatingIfNeeded: tail >> 8)
                            written += 1
                        }
                        output[written] = UInt8(truncatingIfNeeded: tail)
                        written += 1
                    }
                }
                initialized = written
            }
            return valid ? decoded : nil
        }
    }

    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Each byte's sextet, or 0xFF for a byte outside the alphabet (`=` included).
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()
}
