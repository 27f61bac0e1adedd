import ApplePayToken
import WireJSON

/// A tiny JSON writer that keeps keys in the order given and leaves `/` unescaped, so minted tokens
/// read like a device's (Foundation's encoders reorder keys or escape slashes in base64).
indirect enum JSONText {
    case string(String)
    case integer(Int64)
    case object([(String, JSONText)])

    var text: String {
        switch self {
        case .string(let value): Self.quoted(value)
        case .integer(let value): String(value)
        case .object(let fields): "{" + fields.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ value: String) -> String {
        JSONValue.stringLiteral(value)
    }
}
