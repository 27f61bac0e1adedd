import Foundation
import WireJSON

/// The root signing keys a decryptor trusts: Google's for an environment, a sandbox's, or any
/// list the caller configures.
public struct GoogleRootSigningKeys: Sendable {
    public var keys: [GoogleRootSigningKey]

    public init(_ keys: [GoogleRootSigningKey]) {
        self.keys = keys
    }

    /// Reads Google's `keys.json` document (`{"keys": [{keyValue, protocolVersion, keyExpiration?}]}`).
    ///
    /// Keys for a protocol version this library does not know are skipped (Google may publish
    /// new ones before this library reads them); a key it knows but cannot read is an error.
    public init(keysJSON: String) throws(GooglePayTokenError) {
        var keys: [GoogleRootSigningKey] = []
        guard let document = try? JSONValue(parsing: Array(keysJSON.utf8)), case .array(let entries)? = document["keys"] else {
            throw GooglePayTokenError(.invalidKeyMaterial, "the root signing keys are not a JSON object with a \"keys\" array")
        }
        for (index, entry) in entries.enumerated() {
            guard case .string(let versionText)? = entry["protocolVersion"], case .string(let keyValue)? = entry["keyValue"] else {
                throw GooglePayTokenError(.invalidKeyMaterial, "root signing key \(index) lacks a keyValue or protocolVersion string")
            }
            guard let version = GooglePaymentMethodToken.ProtocolVersion(rawValue: versionText) else { continue }
            let expiration: String?
            switch entry["keyExpiration"] {
            case nil, .null?: expiration = nil
            case .string(let text)?: expiration = text
            default: throw GooglePayTokenError(.invalidKeyMaterial, "root signing key \(index)'s keyExpiration is not a string")
            }
            keys.append(try GoogleRootSigningKey(keyValue: keyValue, protocolVersion: version, keyExpiration: expiration))
        }
        self.init(keys)
    }

    /// The keys that may verify a `version` token at `date`.
    func usable(for version: GooglePaymentMethodToken.ProtocolVersion, at date: Date) -> [GoogleRootSigningKey] {
        keys.filter { $0.isUsable(for: version, at: date) }
    }
}
