import Crypto
import Foundation

/// The intermediate signing key, read from `intermediateSigningKey.signedKey` once a root key's
/// signature over that text has verified.
struct SignedKey {
    let publicKey: P256.Signing.PublicKey
    let expiration: Date

    init(_ text: String) throws(GooglePayTokenError) {
        var reader = try TokenObjectReader.parse(Array(text.utf8), path: "intermediateSigningKey.signedKey")
        let keyValue = try reader.base64("keyValue")
        let expirationText = try reader.string("keyExpiration")
        try reader.finish()
        guard let expiration = EpochMilliseconds.date(expirationText) else {
            throw reader.failure("keyExpiration", "must be milliseconds since the epoch, as a string of digits")
        }
        do {
            publicKey = try P256.Signing.PublicKey(derRepresentation: keyValue)
        } catch {
            throw reader.failure("keyValue", "must be a P-256 public key (DER SubjectPublicKeyInfo)")
        }
        self.expiration = expiration
    }
}
