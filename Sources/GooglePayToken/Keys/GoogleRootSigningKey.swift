import Crypto
import Foundation

/// One of Google's root signing keys, as its `keys.json` lists them.
public struct GoogleRootSigningKey: Sendable {
    public let publicKey: P256.Signing.PublicKey
    /// The tokens it signs: a key signs one protocol version only.
    public let protocolVersion: GooglePaymentMethodToken.ProtocolVersion
    /// When it stops being trusted; Google lists none for ECv1 keys, and one for every other.
    public let keyExpiration: Date?

    public init(
        publicKey: P256.Signing.PublicKey,
        protocolVersion: GooglePaymentMethodToken.ProtocolVersion,
        keyExpiration: Date?
    ) {
        self.publicKey = publicKey
        self.protocolVersion = protocolVersion
        self.keyExpiration = keyExpiration
    }

    /// A key as `keys.json` writes it: `keyValue` base64 of a DER SubjectPublicKeyInfo,
    /// `keyExpiration` milliseconds since the epoch as digits.
    public init(
        keyValue: String,
        protocolVersion: GooglePaymentMethodToken.ProtocolVersion,
        keyExpiration: String?
    ) throws(GooglePayTokenError) {
        guard let der = StrictBase64.decode(keyValue), let key = try? P256.Signing.PublicKey(derRepresentation: der) else {
            throw GooglePayTokenError(.invalidKeyMaterial, "a root signing key's keyValue is not base64 of a P-256 public key")
        }
        var expiration: Date?
        if let keyExpiration {
            guard let date = EpochMilliseconds.date(keyExpiration) else {
                throw GooglePayTokenError(.invalidKeyMaterial, "a root signing key's keyExpiration is not milliseconds since the epoch")
            }
            expiration = date
        }
        self.init(publicKey: key, protocolVersion: protocolVersion, keyExpiration: expiration)
    }

    /// Whether it may verify a `version` token at `date`: its version, and unexpired. Keys other
    /// than ECv1 must state an expiration (as Tink requires), so a key without one is never used.
    func isUsable(for version: GooglePaymentMethodToken.ProtocolVersion, at date: Date) -> Bool {
        guard protocolVersion == version else { return false }
        guard let keyExpiration else { return version == .ecV1 }
        return date < keyExpiration
    }
}
