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

    /// A root from its signing key as ``signingKeyPEM`` wrote it; nil for anything else.
    public init?(signingKeyPEM: String, keyExpiration: Date = Date(timeIntervalSince1970: 4_102_444_800)) {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: signingKeyPEM) else { return nil }
        self.init(signingKey: key, keyExpiration: keyExpiration)
    }

    /// The signing key as PKCS#8 PEM, to keep the root on disk (it is secret: mode 0600).
    public var signingKeyPEM: String { signingKey.pemRepresentation }

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
