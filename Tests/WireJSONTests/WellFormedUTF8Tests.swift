import Testing

@testable import WireJSON

@Suite("Text from bytes, only when they are well-formed UTF-8")
struct WellFormedUTF8Tests {
    /// Bytes mostly from UTF-8's own pieces (ASCII, lead bytes, continuation bytes, the bytes
    /// that are never UTF-8), so that well-formed and ill-formed sequences both come up often.
    static func randomBytes(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        let pieces: [ClosedRange<UInt8>] = [0x00...0x7F, 0xC2...0xDF, 0xE0...0xEF, 0xF0...0xF4, 0x80...0xBF, 0x80...0xBF, 0xC0...0xC1, 0xF5...0xFF]
        return (0..<Int.random(in: 0...8, using: &generator)).map { _ in
            UInt8.random(in: pieces.randomElement(using: &generator)!, using: &generator)
        }
    }

    @Test("the same answer as String(validating:as:) on random byte strings")
    func agreesWithTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        var answers: Set<Bool> = []
        for _ in 0..<50_000 {
            let bytes = Self.randomBytes(using: &generator)
            let expected = String(validating: bytes, as: UTF8.self)
            #expect(bytes.withUnsafeBufferPointer { String(wellFormedUTF8: $0) } == expected, "\(bytes)")
            answers.insert(expected != nil)
        }
        #expect(answers == [true, false])
    }

    @Test("the cases that decide: U+FFFD itself, surrogates, overlong forms, truncation")
    func edges() {
        func text(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBufferPointer { String(wellFormedUTF8: $0) } }
        #expect(text([]) == "")
        #expect(text(Array("café €𝄞".utf8)) == "café €𝄞")
        #expect(text([0xEF, 0xBF, 0xBD]) == "\u{FFFD}")  // the replacement character, sent as such
        #expect(text([0xED, 0xA0, 0x80]) == nil)  // a UTF-16 surrogate
        #expect(text([0xC0, 0xAF]) == nil)  // an overlong '/'
        #expect(text([0xE2, 0x82]) == nil)  // a sequence cut short
        #expect(text([0x61, 0x80]) == nil)  // a stray continuation byte
    }
}
