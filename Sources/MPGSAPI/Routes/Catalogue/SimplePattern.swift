import GatewayCore
/// A catalogue pattern that is only alternatives of repeated character classes (`\d{2}|\d{4}`,
/// `[0-9x]{9,19}`, `\d+\.\d+\.\d+`), matched on ASCII text without ICU: a card's expiry year
/// went through NSRegularExpression on every plain-card AUTHORIZE, 1.6% of its CPU.
///
/// It answers only where it agrees with ICU by construction: a pattern with anything else
/// (groups, anchors, alternation inside a group) does not parse, and text with a non-ASCII
/// character is left to ICU, where `\d` and `\w` take Unicode digits and letters.
struct SimplePattern: Sendable {
    /// One ASCII character class, repeated `minimum` to `maximum` times (nil: no upper bound).
    struct Piece: Sendable {
        var allowed: [Bool]  // indexed by ASCII value
        var minimum: Int
        var maximum: Int?
    }

    private let alternatives: [[Piece]]

    /// nil when `pattern` uses anything beyond classes, escapes, literals and quantifiers.
    init?(_ pattern: String) {
        var alternatives: [[Piece]] = []
        for alternative in pattern.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false) {
            guard let pieces = Self.pieces(Array(alternative)) else { return nil }
            alternatives.append(pieces)
        }
        self.alternatives = alternatives
    }

    /// Whether the whole of `text` matches; nil when the text is not ASCII (ICU decides then).
    func matches(_ text: String) -> Bool? {
        // The string's own bytes (a copy on the stack for a small one), not an array per check.
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return alternatives.contains { Self.match(bytes[...], $0[...]) }
        }
    }

    /// Backtracking over the pieces: patterns are a few pieces and texts short.
    private static func match(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ pieces: ArraySlice<Piece>) -> Bool {
        guard let piece = pieces.first else { return text.isEmpty }
        var count = 0
        var index = text.startIndex
        while index < text.endIndex, piece.maximum.map({ count < $0 }) ?? true, piece.allowed[Int(text[index])] {
            count += 1
            index += 1
        }
        while count >= piece.minimum {
            if match(text[(text.startIndex + count)...], pieces.dropFirst()) { return true }
            count -= 1
        }
        return false
    }

    private static func pieces(_ pattern: [UInt8]) -> [Piece]? {
        var pieces: [Piece] = []
        var index = 0
        while index < pattern.count {
            guard let (allowed, next) = characterClass(pattern, at: index) else { return nil }
            index = next
            var piece = Piece(allowed: allowed, minimum: 1, maximum: 1)
            if index < pattern.count {
                switch pattern[index] {
                case UInt8(ascii: "+"):
                    (piece.maximum, index) = (nil, index + 1)
                case UInt8(ascii: "*"):
                    (piece.minimum, piece.maximum, index) = (0, nil, index + 1)
                case UInt8(ascii: "?"):
                    (piece.minimum, index) = (0, index + 1)
                case UInt8(ascii: "{"):
                    guard let (minimum, maximum, next) = repetition(pattern, at: index) else { return nil }
                    (piece.minimum, piece.maximum, index) = (minimum, maximum, next)
                default:
                    break
                }
            }
            // A lazy or possessive quantifier changes nothing for a whole match, but is not worth trusting.
            if index < pattern.count, [UInt8(ascii: "?"), UInt8(ascii: "+")].contains(pattern[index]) { return nil }
            pieces.append(piece)
        }
        return pieces
    }

    /// The class at `index` (`\d`, `\w`, `\.`, `[...]` or a plain character) and where it ends.
    private static func characterClass(_ pattern: [UInt8], at index: Int) -> ([Bool], Int)? {
        var allowed = [Bool](repeating: false, count: 128)
        let byte = pattern[index]
        switch byte {
        case UInt8(ascii: "\\"):
            guard index + 1 < pattern.count else { return nil }
            let escaped = pattern[index + 1]
            switch escaped {
            case UInt8(ascii: "d"):
                for digit in UInt8(ascii: "0")...UInt8(ascii: "9") { allowed[Int(digit)] = true }
            case UInt8(ascii: "w"):
                for byte in 0..<UInt8(128) where isWordCharacter(byte) { allowed[Int(byte)] = true }
            case _ where isPunctuation(escaped):
                allowed[Int(escaped)] = true
            default:
                return nil
            }
            return (allowed, index + 2)
        case UInt8(ascii: "["):
            var next = index + 1
            guard next < pattern.count, pattern[next] != UInt8(ascii: "^") else { return nil }
            while next < pattern.count, pattern[next] != UInt8(ascii: "]") {
                let low = pattern[next]
                guard isClassLiteral(low) else { return nil }
                if next + 2 < pattern.count, pattern[next + 1] == UInt8(ascii: "-"), pattern[next + 2] != UInt8(ascii: "]") {
                    let high = pattern[next + 2]
                    guard isClassLiteral(high), low <= high else { return nil }
                    for byte in low...high { allowed[Int(byte)] = true }
                    next += 3
                } else {
                    allowed[Int(low)] = true
                    next += 1
                }
            }
            guard next < pattern.count, next > index + 1 else { return nil }
            return (allowed, next + 1)
        default:
            // Letters, digits, space and punctuation that is not a regex operator.
            guard byte < 0x80, isWordCharacter(byte) || " /:-,@#%&=~'\"<>;!".utf8.contains(byte) else { return nil }
            allowed[Int(byte)] = true
            return (allowed, index + 1)
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` at `index`: the bounds and where it ends.
    private static func repetition(_ pattern: [UInt8], at index: Int) -> (Int, Int?, Int)? {
        guard let close = pattern[index...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
        let inside = pattern[(index + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: digits, as: UTF8.self))
        }
        switch inside.count {
        case 1:
            guard let count = number(inside[0]) else { return nil }
            return (count, count, close + 1)
        case 2:
            guard let minimum = number(inside[0]) else { return nil }
            if inside[1].isEmpty { return (minimum, nil, close + 1) }
            guard let maximum = number(inside[1]), minimum <= maximum else { return nil }
            return (minimum, maximum, close + 1)
        default:
            return nil
        }
    }

    private static func isWordCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func isPunctuation(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte > 0x20 && !isWordCharacter(byte)
    }

    /// Inside brackets: letters, digits and a few plain characters (no escapes, no nested classes).
    private static func isClassLiteral(_ byte: UInt8) -> Bool {
        isWordCharacter(byte) || " ./:@#".utf8.contains(byte)
    }
}
