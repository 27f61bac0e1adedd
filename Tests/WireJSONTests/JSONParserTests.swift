import Foundation
import Testing

@testable import WireJSON

@Suite("JSON reader")
struct JSONParserTests {
    @Test("values of every type")
    func values() throws {
        let value = try JSONParser.parse(
            Array(#" { "s": "a\"b\\c\/\n\u00e9\ud83d\ude00", "i": -42, "d": 1.5e2, "t": true, "f": false, "n": null, "a": [1, [], {}] } "#.utf8)
        )
        #expect(value["s"] == .string("a\"b\\c/\né😀"))
        #expect(value["i"] == .integer(-42))
        #expect(value["d"] == .double(150))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([.integer(1), .array([]), .object([:])]))
    }

    @Test(
        "rejects what RFC 8259 rejects",
        arguments: [
            "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", ".5", "-", "1e", "tru", "nul",
            "\"abc", "\"\\x\"", "\"\\ud800\"", "\"\u{01}\"", "{} {}", "[1 2]", "{1:2}", "NaN", "1e999",
        ]
    )
    func rejects(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("invalid UTF-8 inside a string is rejected")
    func invalidUTF8() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("deep nesting is refused, not a stack overflow")
    func deepNesting() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }
}

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("serialized text parses back to the same value, escapes included")
    func roundTrip() throws {
        let value = JSONValue.object([
            "s": .string("quote \" backslash \\ newline \n tab \t bell \u{07} é 😀"), "i": .integer(-5),
            "d": .double(30.1), "b": .bool(false), "n": .null, "a": .array([.string(""), .object([:])]),
        ])
        let text = value.serialized()
        #expect(try JSONValue(parsing: text) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text)) == value)
        #expect(String(decoding: JSONValue.string("a\"b").serialized(), as: UTF8.self) == #""a\"b""#)
        #expect(String(decoding: JSONValue.string("\u{01}").serialized(), as: UTF8.self) == #""\u0001""#)
    }

    @Test("object keys come out sorted, so equal values give equal bytes")
    func sortedKeys() {
        let text = String(decoding: JSONValue.object(["b": .integer(1), "a": .integer(2)]).serialized(), as: UTF8.self)
        #expect(text == #"{"a":2,"b":1}"#)
    }
}
