import Crypto
import _CryptoExtras

/// Google's ECIES-KEM and DEM: ECDH with the ephemeral key, HKDF-SHA256 (IKM = ephemeral point ||
/// shared secret, zero salt, info "Google") into an AES-CTR key and an HMAC-SHA256 key; the tag is
/// checked, in constant time, before anything is decrypted.
enum MessageCipher {
    private static let googleInfo = Array("Google".utf8)
    /// Every key encrypts one message, so the counter starts at zero; made once, not per token.
    private static let zeroNonce = try? AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16))

    /// The plaintext, and which of `privateKeys` opened it.
    static func open(
        _ message: EncryptedMessage,
        version: GooglePaymentMethodToken.ProtocolVersion,
        privateKeys: [P256.KeyAgreement.PrivateKey]
    ) throws(GooglePayTokenError) -> (plaintext: [UInt8], keyIndex: Int) {
        let ephemeral: P256.KeyAgreement.PublicKey
        do {
            ephemeral = try P256.KeyAgreement.PublicKey(x963Representation: message.ephemeralPublicKey)
        } catch {
            throw GooglePayTokenError(
                .malformedToken,
                "signedMessage.ephemeralPublicKey is not a point on P-256",
                field: "signedMessage.ephemeralPublicKey"
            )
        }
        // ECv1 uses 128-bit keys, ECv2 256-bit ones; the MAC key is as long as the AES key.
        let keyBytes = version == .ecV1 ? 16 : 32
        for (index, privateKey) in privateKeys.enumerated() {
            guard let shared = try? privateKey.sharedSecretFromKeyAgreement(with: ephemeral) else { continue }
            let inputKeyMaterial = shared.withUnsafeBytes { message.ephemeralPublicKey + $0 }
            let derived = HMACSHA256.hkdf(inputKeyMaterial: inputKeyMaterial, info: googleInfo, outputByteCount: 2 * keyBytes)
            var mac = derived[keyBytes...].withUnsafeBytes { HMACSHA256(key: $0) }
            message.ciphertext.withUnsafeBytes { mac.update($0) }
            guard Self.constantTimeEqual(mac.finalize(), message.tag) else { continue }
            let encryptionKey = SymmetricKey(data: derived[..<keyBytes])
            guard let nonce = zeroNonce else { throw GooglePayTokenError(.decryptionFailed, "the AES-CTR nonce cannot be made") }
            do {
                return (Array(try AES._CTR.decrypt(message.ciphertext, using: encryptionKey, nonce: nonce)), index)
            } catch {
                throw GooglePayTokenError(.decryptionFailed, "AES-CTR decryption failed after the tag verified")
            }
        }
        throw GooglePayTokenError(
            .tagMismatch,
            "the tag verifies with none of the \(privateKeys.count) configured private keys "
                + "(encrypted for another key, or the ciphertext or tag was altered)",
            field: "signedMessage.tag"
        )
    }

    /// Whether the tag is the digest, looking at every byte whatever differs (a tag checked
    /// byte by byte until the first difference tells a forger how much of it is right).
    private static func constantTimeEqual(_ digest: SHA256Digest, _ tag: [UInt8]) -> Bool {
        guard tag.count == SHA256.byteCount else { return false }
        return digest.withUnsafeBytes { digest in
            var difference: UInt8 = 0
            for index in 0..<SHA256.byteCount { difference |= digest[index] ^ tag[index] }
            return difference == 0
        }
    }
}
