import Crypto
import Foundation
import GooglePayToken
import WireJSON
import _CryptoExtras

/// Mints ECv2 payment method tokens as Google's servers would: the message encrypted for a
/// recipient's public key and signed by an intermediate key that the sandbox root signed.
///
/// ```swift
/// let minter = GooglePayTokenMinter(root: GooglePaySandboxRoot())
/// let token = try minter.mint(GooglePayMintRequest(), recipientId: "gateway:sandbox", recipientPublicKey: key)
/// ```
public struct GooglePayTokenMinter: Sendable {
    public let root: GooglePaySandboxRoot
    public let intermediateKey: P256.Signing.PrivateKey
    public let intermediateKeyExpiration: Date

    public init(
        root: GooglePaySandboxRoot,
        intermediateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(),
        intermediateKeyExpiration: Date = Date().addingTimeInterval(7 * 24 * 3600)
    ) {
        self.root = root
        self.intermediateKey = intermediateKey
        self.intermediateKeyExpiration = intermediateKeyExpiration
    }

    /// The token's JSON text (what `tokenizationData.token` holds).
    public func mint(_ request: GooglePayMintRequest, recipientId: String, recipientPublicKey: P256.KeyAgreement.PublicKey) throws -> String {
        try mint(plaintext: Array(Self.message(request).serialized()), recipientId: recipientId, recipientPublicKey: recipientPublicKey)
    }

    /// A token around any plaintext, for tests of what the reader refuses.
    public func mint(plaintext: [UInt8], recipientId: String, recipientPublicKey: P256.KeyAgreement.PublicKey) throws -> String {
        let signedKey = JSONValue.object([
            "keyValue": .string(Data(intermediateKey.publicKey.derRepresentation).base64EncodedString()),
            "keyExpiration": .string(String(Int64(intermediateKeyExpiration.timeIntervalSince1970 * 1000))),
        ])
        let signedKeyText = String(decoding: signedKey.serialized(), as: UTF8.self)
        let keySignature = try root.signingKey.signature(for: Self.lengthPrefixed("Google", "ECv2", signedKeyText))

        let signedMessageText = String(decoding: try Self.encrypt(plaintext, for: recipientPublicKey).serialized(), as: UTF8.self)
        let messageSignature = try intermediateKey.signature(for: Self.lengthPrefixed("Google", recipientId, "ECv2", signedMessageText))

        let token = JSONValue.object([
            "protocolVersion": .string("ECv2"),
            "signature": .string(Data(messageSignature.derRepresentation).base64EncodedString()),
            "intermediateSigningKey": .object([
                "signedKey": .string(signedKeyText),
                "signatures": .array([.string(Data(keySignature.derRepresentation).base64EncodedString())]),
            ]),
            "signedMessage": .string(signedMessageText),
        ])
        return String(decoding: token.serialized(), as: UTF8.self)
    }

    static func message(_ request: GooglePayMintRequest) -> JSONValue {
        var details: [String: JSONValue] = [
            "authMethod": .string(request.authMethod.rawValue),
            "pan": .string(request.pan),
            "expirationMonth": .integer(Int64(request.expirationMonth)),
            "expirationYear": .integer(Int64(request.expirationYear)),
        ]
        if let cryptogram = request.cryptogram { details["cryptogram"] = .string(cryptogram) }
        if let eci = request.eciIndicator { details["eciIndicator"] = .string(eci) }
        var message: [String: JSONValue] = [
            "messageId": .string(request.messageId ?? "SANDBOX-" + UUID().uuidString),
            "messageExpiration": .string(String(Int64(request.messageExpiration.timeIntervalSince1970 * 1000))),
            "paymentMethod": .string("CARD"),
            "paymentMethodDetails": .object(details),
        ]
        if let merchant = request.gatewayMerchantId { message["gatewayMerchantId"] = .string(merchant) }
        return .object(message)
    }

    /// ECIES-KEM with a fresh ephemeral key, HKDF-SHA256 into AES-256-CTR and HMAC-SHA256 keys.
    private static func encrypt(_ plaintext: [UInt8], for recipient: P256.KeyAgreement.PublicKey) throws -> JSONValue {
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let ephemeralPoint = Array(ephemeral.publicKey.x963Representation)
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
        let keys = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared.withUnsafeBytes { ephemeralPoint + Array($0) }),
            salt: [UInt8](repeating: 0, count: 32),
            info: Array("Google".utf8),
            outputByteCount: 64
        )
        let (encryptionKey, macKey) = keys.withUnsafeBytes { (SymmetricKey(data: $0.prefix(32)), SymmetricKey(data: $0.suffix(32))) }
        let ciphertext = try AES._CTR.encrypt(plaintext, using: encryptionKey, nonce: AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16)))
        let tag = HMAC<SHA256>.authenticationCode(for: ciphertext, using: macKey)
        return .object([
            "encryptedMessage": .string(ciphertext.base64EncodedString()),
            "ephemeralPublicKey": .string(Data(ephemeralPoint).base64EncodedString()),
            "tag": .string(Data(tag).base64EncodedString()),
        ])
    }

    private static func lengthPrefixed(_ parts: String...) -> [UInt8] {
        parts.flatMap { part -> [UInt8] in
            let count = UInt32(part.utf8.count)
            return withUnsafeBytes(of: count.littleEndian, Array.init) + Array(part.utf8)
        }
    }
}
