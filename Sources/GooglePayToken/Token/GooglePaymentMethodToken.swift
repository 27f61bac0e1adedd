/// A Google Pay `PaymentMethodToken`, parsed but not yet verified.
///
/// What Google signs is kept as the exact text it signed (`signedMessage`, `signedKey`): the
/// signatures are checked over those strings, then they are read.
public struct GooglePaymentMethodToken: Sendable, Hashable {
    public var protocolVersion: ProtocolVersion
    /// The ECDSA signature (DER) of the message.
    public var signature: [UInt8]
    /// ECv2 and ECv2SigningOnly: the key that signed the message, signed by a root key.
    public var intermediateSigningKey: IntermediateSigningKey?
    /// The signed JSON text: `{encryptedMessage, ephemeralPublicKey, tag}` when encrypted, the
    /// message itself for ECv2SigningOnly.
    public var signedMessage: String

    public init(
        protocolVersion: ProtocolVersion,
        signature: [UInt8],
        intermediateSigningKey: IntermediateSigningKey?,
        signedMessage: String
    ) {
        self.protocolVersion = protocolVersion
        self.signature = signature
        self.intermediateSigningKey = intermediateSigningKey
        self.signedMessage = signedMessage
    }

    /// The signing and encryption scheme.
    public enum ProtocolVersion: String, Sendable, Hashable, CaseIterable {
        /// Signed by the root key directly; AES-128-CTR and HMAC-SHA256 with 128-bit keys.
        case ecV1 = "ECv1"
        /// Signed by an intermediate key that a root key signed; AES-256-CTR and HMAC-SHA256.
        case ecV2 = "ECv2"
        /// Signed as ECv2, not encrypted.
        case ecV2SigningOnly = "ECv2SigningOnly"

        /// Whether `signedMessage` is encrypted.
        public var isEncrypted: Bool { self != .ecV2SigningOnly }
        /// Whether the token carries an intermediate signing key.
        public var usesIntermediateKey: Bool { self != .ecV1 }
    }

    public struct IntermediateSigningKey: Sendable, Hashable {
        /// The signed JSON text `{keyValue, keyExpiration}`.
        public var signedKey: String
        /// ECDSA signatures (DER) of `signedKey`, one per root key Google signed it with.
        public var signatures: [[UInt8]]

        public init(signedKey: String, signatures: [[UInt8]]) {
            self.signedKey = signedKey
            self.signatures = signatures
        }
    }
}
