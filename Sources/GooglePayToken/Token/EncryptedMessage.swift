/// The encrypted `signedMessage`: `{encryptedMessage, ephemeralPublicKey, tag}`, read once its
/// signature has verified.
struct EncryptedMessage {
    let ciphertext: [UInt8]
    /// The sender's ephemeral P-256 key as an uncompressed point (04 || X || Y).
    let ephemeralPublicKey: [UInt8]
    /// HMAC-SHA256 of the ciphertext.
    let tag: [UInt8]

    init(_ text: String) throws(GooglePayTokenError) {
        var reader = try TokenObjectReader.parse(Array(text.utf8), path: "signedMessage")
        ciphertext = try reader.base64("encryptedMessage")
        ephemeralPublicKey = try reader.base64("ephemeralPublicKey")
        tag = try reader.base64("tag")
        try reader.finish()
        guard ephemeralPublicKey.count == 65, ephemeralPublicKey.first == 0x04 else {
            throw reader.failure("ephemeralPublicKey", "must be an uncompressed P-256 point (65 bytes, 04 || X || Y)")
        }
        guard tag.count == 32 else { throw reader.failure("tag", "must be 32 bytes (HMAC-SHA256)") }
    }
}
