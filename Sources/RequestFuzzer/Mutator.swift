import FuzzingSupport

/// Byte mutations stacked one to four deep: bit flips and boundary bytes, ranges cut, repeated or
/// taken from another seed, the parser's own tokens inserted or swapped, huge numbers and deep
/// nesting.
struct Mutator {
    var random: SplitMix64

    mutating func mutate(_ input: [UInt8], splicing other: [UInt8], tokens: ParserTokens) -> [UInt8] {
        var bytes = input
        for _ in 0...Int.random(in: 0...3, using: &random) {
            guard !bytes.isEmpty else { return token(tokens) }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<14, using: &random) {
            case 0: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes[at] = [0x00, 0x0A, 0x0D, 0x20, 0x7F, 0x80, 0xC0, 0xED, 0xEF, 0xF4, 0xFF][Int.random(in: 0..<11, using: &random)]
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
            case 4:
                let range = at..<min(bytes.count, at + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[range], at: Int.random(in: 0...bytes.count, using: &random))
            case 5: bytes.removeSubrange(Int.random(in: 0...at, using: &random)...)
            case 6:
                guard !other.isEmpty else { continue }
                let from = Int.random(in: 0..<other.count, using: &random)
                let piece = other[from..<min(other.count, from + Int.random(in: 1...256, using: &random))]
                bytes.replaceSubrange(at..<min(bytes.count, at + piece.count), with: piece)
            case 7, 8: bytes.insert(contentsOf: token(tokens), at: at)
            case 9:
                // A token where another stood: the parser's structure shifted, not just its bytes.
                let old = tokens.list[Int.random(in: 0..<tokens.list.count, using: &random)]
                if let found = firstRange(of: old, in: bytes, from: at) { bytes.replaceSubrange(found, with: token(tokens)) }
            case 10: bytes.insert(contentsOf: hugeNumber(), at: at)
            case 11:
                let depth = Int.random(in: 1...400, using: &random)
                let (open, close) = tokens.nesting
                var nested = Array(repeatElement(open, count: depth).joined())
                if Bool.random(using: &random) { nested += Array(repeatElement(close, count: depth).joined()) }
                bytes.insert(contentsOf: nested, at: at)
            case 12:
                let count = Int.random(in: 1...16, using: &random)
                bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            default:
                // A range repeated many times: long names, values and header lines.
                let range = at..<min(bytes.count, at + Int.random(in: 1...8, using: &random))
                let piece = Array(bytes[range])
                bytes.insert(contentsOf: repeatElement(piece, count: Int.random(in: 2...2_000, using: &random)).joined(), at: at)
            }
        }
        return bytes
    }

    private mutating func token(_ tokens: ParserTokens) -> [UInt8] {
        tokens.list[Int.random(in: 0..<tokens.list.count, using: &random)]
    }

    private mutating func hugeNumber() -> [UInt8] {
        let numbers = [
            "99999999999999999999999999999999", "-9223372036854775809", "9223372036854775808", "1e400", "-1e-400",
            "0.0000000000000000000000000001", "18446744073709551616", "1E+2147483648", "-0", "00012", "4294967296",
        ]
        return Array(numbers[Int.random(in: 0..<numbers.count, using: &random)].utf8)
    }

    private func firstRange(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index..<index + needle.count }
            index += 1
        }
        return nil
    }
}

/// What a parser's text is made of: the tokens worth inserting, and how to nest.
struct ParserTokens {
    var list: [[UInt8]]
    var nesting: (open: [UInt8], close: [UInt8])

    init(_ tokens: [String], nesting: (String, String)) {
        self.list = tokens.map { Array($0.utf8) }
        self.nesting = (Array(nesting.0.utf8), Array(nesting.1.utf8))
    }
}
