import Crypto
import Foundation
import GooglePayToken

/// A sandbox stand-in for Google's root signing key: tokens it signs verify only where it is
/// configured as a root, never against Google's keys.
public struct GooglePaySandboxRoot: Sendable {
    public let signingKey: P256.Signing.PrivateKey
    public let keyExpiration: Date

    /// A new root (a fresh key unless one is given) trusted until `keyExpiration`.
    public init(
        signingKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        keyExpiration: Date = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
    ) {
        self.signingKey = signingKey
        self.keyExpiration = keyExpiration
    }

    /// The root as a decryptor trusts it (ECv2).
    public var rootSigningKeys: GoogleRootSigningKeys {
        GoogleRootSigningKeys([GoogleRootSigningKey(publicKey: signingKey.publicKey, protocolVersion: .ecV2, keyExpiration: keyExpiration)])
    }

    /// The root as Google publishes its own: a `keys.json` document.
    public var keysJSON: String {
        let key = Data(signingKey.publicKey.derRepresentation).base64EncodedString()
        let expiration = String(Int64(keyExpiration.timeIntervalSince1970 * 1000))
        return #"{"keys":[{"keyValue":"\#(key)","protocolVersion":"ECv2","keyExpiration":"\#(expiration)"}]}"#
    }
}
