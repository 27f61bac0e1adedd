import Foundation
import Testing
import TextEdits

@testable import ApplePayToken

@Suite("Base64 as tokens carry it")
struct Base64Tests {
    /// What the decoder has always accepted: whitespace removed, missing padding made up, then
    /// Foundation's strict decoding.
    static func foundation(_ text: String) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        utf8.removeAll { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
        guard !utf8.isEmpty, utf8.count % 4 != 1 else { return nil }
        utf8 += Array(repeating: UInt8(ascii: "="), count: (4 - utf8.count % 4) % 4)
        return Data(base64Encoded: Data(utf8)).map { Array($0) }
    }

    @Test("random bytes round-trip, with and without padding and with line breaks")
    func roundTrips() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Data(bytes).base64EncodedString()
            let expected: [UInt8]? = bytes.isEmpty ? nil : bytes
            #expect(Base64.decode(encoded) == expected)
            #expect(Base64.decode(encoded.replacingOccurrences(of: "=", with: "")) == expected)
            #expect(Base64.decode(encoded.enumerated().map { "\($0.offset % 7 == 6 ? "\r\n" : "")\($0.element)" }.joined()) == expected)
        }
    }

    /// '=' only as the padding that completes the last quartet. Foundation also takes '=' inside
    /// the text and padding past the quartet ("uV32==", "aHInSg=C"), and decodes around it; this
    /// decoder refuses those.
    static func paddingWellPlaced(_ text: String) -> Bool {
        let utf8 = Array(text.utf8).filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        guard let firstPad = utf8.firstIndex(of: UInt8(ascii: "=")) else { return true }
        let padding = utf8.count - firstPad
        return utf8[firstPad...].allSatisfy { $0 == UInt8(ascii: "=") } && padding <= (4 - firstPad % 4) % 4
    }

    /// Over 20,000 edits of random base64, `decode` answers `expected` (nil where '=' is out of
    /// place), and both answers come up.
    static func compareOnEditedTexts(_ decode: (String) -> [UInt8]?, expected: (String) -> [UInt8]?) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCQRSabz019+/=  \n-_*é")
        var answers: Set<Bool> = []
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = TextEdits.randomlyEdited(Data(bytes).base64EncodedString(), alphabet: alphabet, using: &generator)
            let expected = Self.paddingWellPlaced(text) ? expected(text) : nil
            #expect(decode(text) == expected, "'\(text)'")
            answers.insert(expected != nil)
        }
        #expect(answers == [true, false])
    }

    @Test("edited texts: accepted and refused as before, but for '=' out of place")
    func agreesWithFoundation() {
        Self.compareOnEditedTexts(Base64.decode, expected: Self.foundation)
    }

    @Test("the cases that decide: padding, stray '=', a lone sextet")
    func edges() {
        #expect(Base64.decode("QQ==") == [0x41])
        #expect(Base64.decode("QQ=") == [0x41])
        #expect(Base64.decode("QQ") == [0x41])
        #expect(Base64.decode("QUI") == [0x41, 0x42])
        #expect(Base64.decode("Q") == nil)
        #expect(Base64.decode("QUJDR") == nil)
        #expect(Base64.decode("Q===") == nil)
        #expect(Base64.decode("QQ=A") == nil)
        #expect(Base64.decode("====") == nil)
        #expect(Base64.decode("") == nil)
        #expect(Base64.decode(" \n") == nil)
        #expect(Base64.decode("QUJD-_") == nil)
    }
}

@Suite("Base64 as HTTP Basic credentials carry it")
struct StrictBase64Tests {
    @Test("edited texts: accepted and refused as Foundation's default decoding does, but for '=' out of place")
    func agreesWithFoundation() {
        let strict = { (text: String) in Array(text.utf8).withUnsafeBufferPointer { Base64.decodeStrictly(utf8: $0) } }
        // Foundation reads "" as no bytes; credentials need some, and the decoder says nil.
        let foundation = { (text: String) in text.isEmpty ? nil : Data(base64Encoded: text).map { Array($0) } }
        Base64Tests.compareOnEditedTexts(strict, expected: foundation)
    }
}
