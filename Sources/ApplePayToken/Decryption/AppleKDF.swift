import Crypto

/// The EC_v1 key derivation: NIST SP 800-56A concat KDF with one SHA-256 round.
///
/// key = SHA-256(00 00 00 01 || Z || 0x0D || "id-aes256-GCM" || "Apple" || partyV).
/// CryptoKit's ANSI X9.63 KDF puts the counter after Z, so it cannot be used here.
public enum AppleKDF {
    private static let algorithmId: [UInt8] = [0x0D] + Array("id-aes256-GCM".utf8)
    private static let partyU: [UInt8] = Array("Apple".utf8)

    /// - Parameters:
    ///   - sharedSecret: the 32-byte ECDH result Z, leading zero bytes included.
    ///   - merchantIdentifierHash: party V, SHA-256 of the merchant identifier.
    public static func symmetricKey<Secret: Collection<UInt8>, PartyV: Collection<UInt8>>(
        sharedSecret: Secret,
        merchantIdentifierHash: PartyV
    ) -> SymmetricKey {
        var hasher = SHA256()
        hasher.update(data: [0, 0, 0, 1])
        hasher.update(data: Array(sharedSecret))
        hasher.update(data: algorithmId)
        hasher.update(data: partyU)
        hasher.update(data: Array(merchantIdentifierHash))
        return SymmetricKey(data: hasher.finalize())
    }
}
