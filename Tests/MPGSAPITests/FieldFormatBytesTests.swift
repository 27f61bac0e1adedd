import Testing
import TextEdits

@testable import MPGSAPI

/// The format checks that read a field's bytes instead of its Characters give the answers the
/// Character-based ones gave (kept here as the reference).
@Suite("Field formats checked on bytes, as on Characters")
struct FieldFormatBytesTests {
    static func referenceIsDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && !parts[0].isEmpty && parts.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
            && (parts.count == 1 || !parts[1].isEmpty)
    }

    /// Whether the Character-based checks accepted `text`.
    static func referenceAccepts(_ format: FieldFormat, _ text: String) -> Bool {
        switch format {
        case .characters(let rule, let range):
            return range.contains(text.count) && text.unicodeScalars.allSatisfy(rule.allows)
        case .digits(let range):
            return range.contains(text.count) && text.allSatisfy(\.isASCIIDigit)
        case .numericText(let range):
            guard text.allSatisfy(\.isASCIIDigit), let number = Int64(text) else { return false }
            return range.contains(number)
        case .month:
            guard text.allSatisfy(\.isASCIIDigit), let month = Int(text) else { return false }
            return (1...12).contains(month)
        case .decimal(let range, let signed):
            let unsigned = signed && text.hasPrefix("-") ? String(text.dropFirst()) : text
            return range.contains(text.count) && referenceIsDecimal(unsigned)
        case .number(let maximum, let fractionDigits):
            let fraction = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first ?? ""
            guard referenceIsDecimal(text), let number = Double(text) else { return false }
            return number <= maximum && fraction.count <= fractionDigits
        default:
            Issue.record("no reference for \(format)")
            return false
        }
    }

    static let examples: [(FieldFormat, String)] = [
        (.digits(12...19), "5123450000000008"),
        (.digits(3...4), "123"),
        (.numericText(0...999), "42"),
        (.month, "12"),
        (.decimal(1...12, signed: false), "56.56"),
        (.decimal(1...8, signed: true), "-12.5"),
        (.number(maximum: 1_000_000, fractionDigits: 3), "56.56"),
        (.number(maximum: 100, fractionDigits: 2), "7"),
        (.characters(.text, 1...5), "a\r\nb"),
        (.characters(.alnumspace, 2...10), "AB 12"),
        (.characters(.upper, 3...3), "USD"),
    ]

    @Test("accepted and refused as before, over edited examples", arguments: 0..<examples.count)
    func agreesWithCharacters(_ example: Int) {
        let (format, valid) = Self.examples[example]
        let alphabet: [Character] = ["0", "1", "9", ".", "-", "a", "Z", " ", "\r", "\n", "\r\n", "é", "e\u{301}", "1\u{301}", "٣", "+"]
        var generator = SystemRandomNumberGenerator()
        var answers: Set<Bool> = []
        for _ in 0..<4_000 {
            let text = TextEdits.randomlyEdited(valid, alphabet: alphabet, using: &generator)
            guard !text.isEmpty else { continue }  // empty counts as absent before any format applies
            let expected = Self.referenceAccepts(format, text)
            #expect((format.problem(with: text) == nil) == expected, "\(format) '\(text.debugDescription)'")
            answers.insert(expected)
        }
        #expect(answers == [true, false])
    }

    @Test("a Character count from bytes: CR LF is one, anything beyond ASCII counts as Characters")
    func characterCount() {
        for text in ["", "abc", "a\r\nb", "\r\r\n\n", "\n\r", "é", "e\u{301}x", "\r\n\u{301}", "🇫🇷12"] {
            #expect(FieldFormat.characterCount(text) == text.count, "\(text.debugDescription)")
        }
    }
}
