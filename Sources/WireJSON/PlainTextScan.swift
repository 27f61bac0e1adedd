/// Finds where a run of string text that JSON carries as it is ends: at a quote, a backslash or a
/// control character, the bytes a reader must look at and a writer must escape.
///
/// A wallet token is kilobytes of base64 inside JSON strings, read and written several times per
/// payment; testing eight bytes at once (a word's bytes compared in parallel, as in
/// "Bit Twiddling Hacks"' has-zero-byte) instead of one at a time halves what its strings cost.
enum PlainTextScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let quotes = ones &* UInt64(UInt8(ascii: "\""))
    private static let backslashes = ones &* UInt64(UInt8(ascii: "\\"))
    private static let spaces = ones &* 0x20

    /// The index of the first quote, backslash or byte below 0x20 at or after `start`, or
    /// `bytes.count` when there is none.
    static func end(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while bytes.count - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // A flag in the high bit of each byte that is zero after the XOR (a quote or a
                // backslash) or below 0x20. The lowest flag is always exact (a borrow only runs
                // upwards from a byte that is flagged itself), which is the one wanted.
                let flags = (zeroBytes(word ^ quotes) | zeroBytes(word ^ backslashes) | ((word &- spaces) & ~word)) & highBits
                if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count, !needsAttention(bytes[index]) { index += 1 }
        return index
    }

    /// Whether a string byte is a quote, a backslash or a control character.
    static func needsAttention(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word
    }
}
