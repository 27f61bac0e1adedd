import Foundation

/// Verifies and decrypts Google Pay payment method tokens as Google's payment data cryptography
/// guide specifies (its steps 1 to 6), for ECv2, ECv1 and ECv2SigningOnly.
///
/// Give it the root signing keys and a clock; give each call the recipient (its recipient id
/// and private keys). It keeps no state but a bounded cache of intermediate signing keys whose
/// root signature verified, so a warm ECv2 token costs one ECDSA verification and one ECDH.
/// Copies share the cache; it is safe to call from many tasks at once.
///
/// ```swift
/// let decryptor = GooglePayTokenDecryptor(rootKeys: .googleTest)
/// let token = try GooglePaymentMethodToken(parsing: paymentToken)
/// let result = try decryptor.decrypt(token, for: .gateway("mygateway", privateKeys: keys))
/// result.message.messageId   // the replay key
/// ```
///
/// Replay (a messageId seen before) and the amount need the gateway's memory and order; they
/// belong to the caller.
public struct GooglePayTokenDecryptor: Sendable {
    public let rootKeys: GoogleRootSigningKeys
    public let clock: @Sendable () -> Date
    private let intermediateKeys: IntermediateKeyCache

    /// `intermediateKeyCacheCapacity` bounds the verified intermediate keys kept (Google has a
    /// few in use at a time); 0 verifies every token's in full.
    public init(
        rootKeys: GoogleRootSigningKeys,
        intermediateKeyCacheCapacity: Int = 16,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.rootKeys = rootKeys
        self.clock = clock
        self.intermediateKeys = IntermediateKeyCache(capacity: intermediateKeyCacheCapacity)
    }

    /// The signature checks alone: the intermediate key against the roots, its expiration, and
    /// the message signature for `recipientId`.
    public func verifySignatures(of token: GooglePaymentMethodToken, recipientId: String) throws(GooglePayTokenError) -> VerifiedGooglePayToken {
        let verifier = TokenSignatureVerifier(roots: rootKeys, intermediateKeys: intermediateKeys)
        let expiration = try verifier.verify(token, recipientId: recipientId, now: clock())
        return VerifiedGooglePayToken(
            protocolVersion: token.protocolVersion,
            signedMessage: token.signedMessage,
            intermediateKeyExpiration: expiration
        )
    }

    /// Verified and decrypted, not read: the plaintext bytes (for ECv2SigningOnly, the signed
    /// message's). `messageExpiration` is not checked here; ``decrypt(_:for:)`` checks it.
    public func unseal(_ token: GooglePaymentMethodToken, for recipient: GooglePayRecipient) throws(GooglePayTokenError) -> UnsealedGooglePayToken {
        let verified = try verifySignatures(of: token, recipientId: recipient.recipientId)
        guard token.protocolVersion.isEncrypted else {
            return UnsealedGooglePayToken(verified: verified, plaintext: Array(token.signedMessage.utf8), keyIndex: nil)
        }
        guard !recipient.privateKeys.isEmpty else {
            throw GooglePayTokenError(.invalidKeyMaterial, "the recipient has no private key to decrypt with")
        }
        let message = try EncryptedMessage(token.signedMessage)
        let opened = try MessageCipher.open(message, version: token.protocolVersion, privateKeys: recipient.privateKeys)
        return UnsealedGooglePayToken(verified: verified, plaintext: opened.plaintext, keyIndex: opened.keyIndex)
    }

    /// Steps 1 to 6: verify, decrypt, read the message and check it has not expired.
    public func decrypt(_ token: GooglePaymentMethodToken, for recipient: GooglePayRecipient) throws(GooglePayTokenError) -> DecryptedGooglePayToken {
        let unsealed = try unseal(token, for: recipient)
        let message = try GooglePayMessage(jsonBytes: unsealed.plaintext)
        let now = clock()
        guard now < message.messageExpiration else {
            throw GooglePayTokenError(
                .messageExpired,
                "the message expired at \(message.messageExpiration.formatted(.iso8601)); it is \(now.formatted(.iso8601))",
                field: "messageExpiration"
            )
        }
        return DecryptedGooglePayToken(
            protocolVersion: token.protocolVersion,
            intermediateKeyExpiration: unsealed.verified.intermediateKeyExpiration,
            keyIndex: unsealed.keyIndex,
            message: message
        )
    }
}

/// A token whose signatures verified.
public struct VerifiedGooglePayToken: Sendable, Hashable {
    public var protocolVersion: GooglePaymentMethodToken.ProtocolVersion
    public var signedMessage: String
    /// ECv2 and ECv2SigningOnly: when the intermediate signing key expires.
    public var intermediateKeyExpiration: Date?
}

/// A verified token's plaintext, not yet read.
public struct UnsealedGooglePayToken: Sendable, Hashable {
    public var verified: VerifiedGooglePayToken
    public var plaintext: [UInt8]
    /// Which of the recipient's private keys decrypted it (nil when not encrypted).
    public var keyIndex: Int?
}

/// A verified, decrypted, unexpired token.
public struct DecryptedGooglePayToken: Sendable, Hashable {
    public var protocolVersion: GooglePaymentMethodToken.ProtocolVersion
    public var intermediateKeyExpiration: Date?
    /// Which of the recipient's private keys decrypted it (nil for ECv2SigningOnly): a rotation
    /// can retire a key once no token uses it.
    public var keyIndex: Int?
    public var message: GooglePayMessage

    /// The replay key: Google's messageId.
    public var messageId: String { message.messageId }
}
