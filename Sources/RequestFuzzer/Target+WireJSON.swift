import Foundation
import MPGSAPI
import WireJSON

extension Target {
    /// The wire JSON reader, then the transaction PUT's reading of what it accepts (the
    /// catalogue's shape for the operation and version, the operation's typed request, the echo).
    /// Invariants: an accepted text is UTF-8 and a JSON text Foundation's reader accepts too;
    /// written out and read again it is the same value; an error never repeats a card number.
    static func wireJSON(seeds: [[UInt8]]) -> Target {
        let tokens = ParserTokens(
            [
                "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "\\u0000", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\uD800\\u0041",
                "\\\"", "\\/", "\\x", "null", "true", "false", "-", "0", "1.5e3", "1e", ".", "\u{0}", "\u{7F}", "\u{FEFF}", "\"apiOperation\":",
                "\"AUTHORIZE\"", "\"PAY\"", "\"CAPTURE\"", "\"INITIATE_AUTHENTICATION\"", "\"order\":{", "\"amount\":", "\"currency\":\"USD\"",
                "\"sourceOfFunds\":", "\"number\":\"5123450000000008\"", "\"session\":{\"id\":\"SESSION0001\"}", " ", "\t", "\n",
            ],
            nesting: ("[", "]")
        )
        let versions = [39, 53, 61, 100]
        return Target(name: "wireJSON", seeds: seeds, tokens: tokens) { input in
            guard let value = try? JSONValue(parsing: input) else { return nil }
            guard String(validating: input, as: UTF8.self) != nil else { return "accepted a text that is not UTF-8" }
            if (try? JSONSerialization.jsonObject(with: Data(input), options: .fragmentsAllowed)) == nil {
                return "accepted a text Foundation's JSON reader refuses"
            }
            let written = value.serialized()
            guard let reread = try? JSONValue(parsing: written) else { return "the accepted value, written out, is refused" }
            guard reread == value else { return "the accepted value, written out and read again, differs" }
            guard reread.serialized() == written else { return "writing the value is not stable" }
            // The API version: from the input, so a printed input repeats the run.
            let version = versions[input.reduce(0) { ($0 + Int($1)) % versions.count }]
            do throws(GatewayError) {
                let read = try TransactionBodyReading.read(input, version: version)
                if let number = echoedCardNumber(in: String(decoding: read.echo.serialized(), as: UTF8.self), values: leaves(value)) {
                    return "the echo repeats the card number \(number.prefix(6))…"
                }
            } catch {
                if let number = echoedCardNumber(in: error.explanation, values: leaves(value)) {
                    return "an error repeats the card number \(number.prefix(6))…"
                }
            }
            return nil
        }
    }

    /// The strings and numbers of a value, as text.
    private static func leaves(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members): members.values.flatMap(leaves)
        case .array(let elements): elements.flatMap(leaves)
        case .string(let text): [text]
        default: [String(decoding: value.serialized(), as: UTF8.self)]
        }
    }
}
