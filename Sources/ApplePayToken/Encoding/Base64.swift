import Foundation

enum Base64 {
    /// Decodes standard base64, tolerating whitespace and missing `=` padding (real tokens have
    /// been passed around with their padding stripped); '=' anywhere but completing the last
    /// quartet is refused, where Foundation decodes around it. Works on the string's own bytes,
    /// into one array: a token's fields are decoded on every request, and going through `Data`
    /// both ways cost four allocations per field.
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Sextets and padding, whitespace skipped; '=' only at the end. Missing padding is made up
        // (a length of 4n+1 cannot be), and then at most two '=' may end the last quartet.
        var sextets = 0
        var padding = 0
        for byte in utf8 where !isWhitespace(byte) {
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else {
                guard padding == 0, decoding[Int(byte)] != invalid else { return nil }
                sextets += 1
            }
        }
        let length = sextets + padding
        guard sextets > 0, length % 4 != 1, padding + (4 - length % 4) % 4 <= 2 else { return nil }
        let count = sextets / 4 * 3 + max(0, sextets % 4 - 1)
        return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            var accumulator: UInt32 = 0
            var bits = 0
            var written = 0
            for byte in utf8 where !isWhitespace(byte) && byte != UInt8(ascii: "=") {
                accumulator = accumulator << 6 | UInt32(decoding[Int(byte)])
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                    written += 1
                }
            }
            initialized = written
        }
    }

    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }

    private static let invalid: UInt8 = 0xFF

    /// Each byte's sextet, or `invalid`.
    private static let decoding: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
