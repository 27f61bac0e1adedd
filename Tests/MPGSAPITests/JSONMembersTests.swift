import ApplePayToken
import Testing
import WireJSON

@testable import MPGSAPI

/// Responses are written from member lists without a dictionary; they must be the bytes the
/// dictionary-based writer gives for the same object, or a stored response and a fresh one of
/// the same transaction would differ.
@Suite("JSON members")
struct JSONMembersTests {
    /// Keys that sort differently by bytes, by case and by Unicode: upper before lower case, a
    /// prefix before its extensions, precomposed and decomposed accents, an emoji.
    static let keys = [
        "id", "ID", "Id", "i", "id2", "amount", "amountX", "a", "Z", "z", "_x", "é", "e\u{301}", "ß", "😀",
        "gatewayCode", "gatewayRecommendation", "timeOfLastUpdate", "timeOfRecord", "",
    ]

    static let leaves: [JSONValue] = [
        .string("plain"), .string("quote \" backslash \\ newline \n tab \t nul \u{0}"), .string("ünïcødé 😀"),
        .integer(0), .integer(-42), .integer(Int64.max), .double(56.56), .double(0.1), .double(1e21), .bool(true),
        .bool(false), .null, .array([.integer(1), .string("two"), .object(["k": .null])]), .object([:]),
    ]

    @Test("written members are the bytes JSONValue writes for the same object, nested and with keys set twice")
    func sameBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let members = Self.randomMembers(depth: 2, using: &generator)
            #expect(members.serialized() == members.jsonValue.serialized())
        }
    }

    @Test("members laid over a value are the bytes of JSONValue's overlay of the same two")
    func sameOverlay() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let members = Self.randomMembers(depth: 2, using: &generator)
            let base =
                Bool.random(using: &generator)
                ? Self.randomMembers(depth: 2, using: &generator).jsonValue : Self.leaves.randomElement(using: &generator)!
            #expect(members.laid(over: base).serialized() == base.overlaid(with: members.jsonValue).serialized())
        }
    }

    @Test("setting a key again replaces its value, as in a dictionary")
    func replaces() {
        var members = JSONMembers(["b": .integer(1), "a": .integer(2)])
        members.set("b", .string("again"))
        #expect(String(decoding: members.serialized(), as: UTF8.self) == #"{"a":2,"b":"again"}"#)
    }

    static func randomMembers(depth: Int, using generator: inout some RandomNumberGenerator) -> JSONMembers {
        var members = JSONMembers()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            let key = keys.randomElement(using: &generator)!
            if depth > 0, Bool.random(using: &generator), Int.random(in: 0..<4, using: &generator) == 0 {
                members.set(key, randomMembers(depth: depth - 1, using: &generator))
            } else {
                members.set(key, leaves.randomElement(using: &generator)!)
            }
        }
        return members
    }
}
