/// The encrypted `signedMessage`: `{encryptedMessage, ephemeralPublicKey, tag}`, read once its
/// signature has verified.
struct EncryptedMessage {
    let ciphertext: [UInt8]
    /// The sender's ephemeral P-256 key as an uncompressed point (04 || X || Y).
    let ephemeralPublicKey: [UInt8]
    /// HMAC-SHA256 of the ciphertext.
    let tag: [UInt8]

    init(_ text: String) throws(GooglePayTokenError) {
        var text = text
        if let compact = text.withUTF8(Self.compact) {
            self = compact
            return
        }
        var reader = try TokenObjectReader.parse(Array(text.utf8), path: "signedMessage")
        ciphertext = try reader.base64("encryptedMessage")
        ephemeralPublicKey = try reader.base64("ephemeralPublicKey")
        tag = try reader.base64("tag")
        try reader.finish()
        guard Self.isUncompressedPoint(ephemeralPublicKey) else {
            throw reader.failure("ephemeralPublicKey", "must be an uncompressed P-256 point (65 bytes, 04 || X || Y)")
        }
        guard tag.count == 32 else { throw reader.failure("tag", "must be 32 bytes (HMAC-SHA256)") }
    }

    private init(ciphertext: [UInt8], ephemeralPublicKey: [UInt8], tag: [UInt8]) {
        self.ciphertext = ciphertext
        self.ephemeralPublicKey = ephemeralPublicKey
        self.tag = tag
    }

    private static func isUncompressedPoint(_ bytes: [UInt8]) -> Bool {
        bytes.count == 65 && bytes.first == 0x04
    }

    /// Google's own form, `{"encryptedMessage":"…","ephemeralPublicKey":"…","tag":"…"}` without
    /// whitespace or escapes, read without building a JSON value (it was a fifth of a warm
    /// token's time beyond its two P-256 operations). Anything else, valid or not, is nil and
    /// goes through the JSON reader, which reads this form the same way and names what is wrong.
    private static func compact(_ utf8: UnsafeBufferPointer<UInt8>) -> EncryptedMessage? {
        var position = 0
        func expect(_ literal: StaticString) -> Bool {
            literal.withUTF8Buffer { literal in
                guard utf8.count - position >= literal.count,
                    literal.indices.allSatisfy({ utf8[position + $0] == literal[$0] })
                else { return false }
                position += literal.count
                return true
            }
        }
        func base64Value() -> [UInt8]? {
            let start = position
            while position < utf8.count, utf8[position] != UInt8(ascii: "\"") { position += 1 }
            return StrictBase64.decode(utf8: UnsafeBufferPointer(rebasing: utf8[start..<position]))
        }
        guard expect(#"{"encryptedMessage":""#), let ciphertext = base64Value(),
            expect(#"","ephemeralPublicKey":""#), let ephemeralPublicKey = base64Value(),
            expect(#"","tag":""#), let tag = base64Value(),
            expect(#""}"#), position == utf8.count,
            isUncompressedPoint(ephemeralPublicKey), tag.count == 32
        else { return nil }
        return EncryptedMessage(ciphertext: ciphertext, ephemeralPublicKey: ephemeralPublicKey, tag: tag)
    }
}
