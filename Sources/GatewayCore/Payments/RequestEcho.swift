import ApplePayToken
import WireJSON

/// What a transaction's response returns of its request (billing, customer, shipping, ...), as
/// the front end read it. The core carries it to the response encoder and never reads it. A value,
/// not the bytes it would be written as: the encoder lays it under the response, and writing it
/// out only to parse it back cost a serialization and a parse per request.
package struct RequestEcho: Sendable, Hashable {
    package var json: JSONValue

    package init(_ json: JSONValue = .object([:])) {
        self.json = json
    }
}
