import Foundation

package enum Base64 {
    /// Decodes standard base64, tolerating whitespace and missing `=` padding (real tokens have
    /// been passed around with their padding stripped); '=' anywhere but completing the last
    /// quartet is refused, where Foundation decodes around it. Works on the string's own bytes,
    /// into one array: a token's fields are decoded on every request, and going through `Data`
    /// both ways cost four allocations per field.
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    /// Standard base64 as Foundation's `Data(base64Encoded:)` reads it by default: no whitespace,
    /// padding required; '=' out of place refused, as in `decode`. For HTTP Basic credentials.
    package static func decodeStrictly(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 4 == 0, !utf8.contains(where: { classes[Int($0)] == whitespace }) else { return nil }
        return decode(utf8: utf8)
    }

    static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // One pass through a class table held as a pointer: a static array read per byte cost a
        // `swift_once` check each time, and sorting bytes into letters, digits and signs with
        // comparisons mispredicted on base64's random text (together 6% of a token AUTHORIZE).
        classes.withUnsafeBufferPointer { classes in
            var sextets = 0
            var padding = 0
            var wellFormed = true
            // Whitespace and padding only make the output shorter than this bound.
            let decoded = [UInt8](unsafeUninitializedCapacity: utf8.count / 4 * 3 + 2) { output, initialized in
                var accumulator: UInt32 = 0
                var bits = 0
                var written = 0
                // Whole quartets of plain sextets, four bytes into three at once: all of a real
                // token's text but its end. The first quartet holding padding, whitespace or
                // anything else goes, with the rest, through the byte-at-a-time loop below.
                var start = 0
                while start + 4 <= utf8.count {
                    let first = classes[Int(utf8[start])]
                    let second = classes[Int(utf8[start + 1])]
                    let third = classes[Int(utf8[start + 2])]
                    let fourth = classes[Int(utf8[start + 3])]
                    guard (first | second | third | fourth) < 64 else { break }
                    let quartet = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
                    output[written] = UInt8(truncatingIfNeeded: quartet >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: quartet >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: quartet)
                    written += 3
                    start += 4
                }
                sextets = start
                for byte in UnsafeBufferPointer(rebasing: utf8[start...]) {
                    let sextet = classes[Int(byte)]
                    if sextet < 64 {
                        // '=' only at the end.
                        guard padding == 0 else {
                            wellFormed = false
                            break
                        }
                        sextets += 1
                        accumulator = accumulator << 6 | UInt32(sextet)
                        bits += 6
                        if bits >= 8 {
                            bits -= 8
                            output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                            written += 1
                        }
                    } else if sextet == Self.padding {
                        padding += 1
                    } else if sextet != Self.whitespace {
                        wellFormed = false
                        break
                    }
                }
                initialized = written
            }
            // Missing padding is made up (a length of 4n+1 cannot be), and then at most two '='
            // may end the last quartet.
            let length = sextets + padding
            guard wellFormed, sextets > 0, length % 4 != 1, padding + (4 - length % 4) % 4 <= 2 else { return nil }
            return decoded
        }
    }

    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }

    private static let invalid: UInt8 = 0xFF
    private static let padding: UInt8 = 0xFE
    private static let whitespace: UInt8 = 0xFD

    /// Each byte's sextet, or `padding`, `whitespace` (space, tab, CR, LF) or `invalid`.
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        table[Int(UInt8(ascii: "="))] = padding
        for space in [0x20, 0x0A, 0x0D, 0x09] { table[space] = whitespace }
        return table
    }()
}
