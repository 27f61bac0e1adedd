import Foundation
import Testing
import TextEdits

@testable import MPGSAPI

@Suite("Catalogue patterns matched without ICU agree with ICU")
struct SimplePatternTests {
    /// The catalogue's own simple patterns and a few more of the shapes the parser takes, each
    /// with a text it matches: the random texts are mostly small edits of it, so both answers come up.
    static let simplePatterns: [(pattern: String, example: String)] = [
        (#"\d{2}|\d{4}"#, "2039"), (#"\w{2}|\d{3}|\w{2}/\d{3}"#, "AB/123"), (#"\d+\.\d+\.\d+"#, "10.2.33"),
        (#"[0-9x]{9,19}"#, "512345xxxxxx0008"), (#"[A-Z]{3}"#, "USD"), (#"\d{1,3}"#, "42"), (#"a*b?\d{2,}"#, "aab123"),
        (#"\d+\d"#, "12"), (#"[a-fA-F0-9]{4}-\d*"#, "a0F9-12"),
    ]

    static func icu(_ pattern: String, _ text: String) -> Bool {
        let expression = try! NSRegularExpression(pattern: "^(?:\(pattern))$")
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test("random ASCII texts: the same answer as NSRegularExpression", arguments: simplePatterns)
    func agreesWithICU(pattern: String, example: String) throws {
        let simple = try #require(SimplePattern(pattern), "\(pattern) should parse")
        let alphabet = Array("0123456789xXaAbfFZ_./- ")
        var generator = SystemRandomNumberGenerator()
        var answers: Set<Bool> = []
        for _ in 0..<3_000 {
            let text = TextEdits.randomlyEdited(example, alphabet: alphabet, using: &generator)
            let expected = Self.icu(pattern, text)
            #expect(simple.matches(text) == expected, "\(pattern) on '\(text)'")
            answers.insert(expected)
        }
        #expect(answers == [true, false], "\(pattern): random texts gave only \(answers)")
    }

    @Test("the catalogue's patterns as the checks use them")
    func catalogueFields() {
        #expect(FieldFormat.matches("39", #"\d{2}|\d{4}"#))
        #expect(FieldFormat.matches("2039", #"\d{2}|\d{4}"#))
        #expect(!FieldFormat.matches("203", #"\d{2}|\d{4}"#))
        #expect(!FieldFormat.matches("2039\n", #"\d{2}|\d{4}"#))
        #expect(FieldFormat.matches("1.2.30", #"\d+\.\d+\.\d+"#))
        #expect(!FieldFormat.matches("1.2", #"\d+\.\d+\.\d+"#))
        #expect(FieldFormat.matches("AB/123", #"\w{2}|\d{3}|\w{2}/\d{3}"#))
        #expect(FieldFormat.matches("512345xxxxxx0008", #"[0-9x]{9,19}"#))
    }

    @Test("non-ASCII text is left to ICU, which takes Unicode digits for \\d")
    func unicodeTextGoesToICU() throws {
        let simple = try #require(SimplePattern(#"\d{2}|\d{4}"#))
        let arabicIndic = "\u{0663}\u{0669}"  // "39" in Arabic-Indic digits
        #expect(simple.matches(arabicIndic) == nil)
        #expect(FieldFormat.matches(arabicIndic, #"\d{2}|\d{4}"#) == Self.icu(#"\d{2}|\d{4}"#, arabicIndic))
    }

    @Test(
        "patterns beyond classes and quantifiers are not parsed",
        arguments: [
            #"(\d{2})"#, #"^\d$"#, #"\d{2}(:\d{2})?"#, #"[^0-9]"#, #"\d+?"#, #"\d++"#, #"\s"#, #"a.b"#, #"[a-]"#, #"\d{3,1}"#,
        ]
    )
    func refusesOthers(pattern: String) {
        #expect(SimplePattern(pattern) == nil)
    }
}
