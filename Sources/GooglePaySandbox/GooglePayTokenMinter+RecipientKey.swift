import Crypto
import Foundation

extension GooglePayTokenMinter {
    /// A recipient's public key in any form a merchant has it in: base64 of the uncompressed
    /// point (what Google's Business Console takes), PEM or base64 DER SubjectPublicKeyInfo, or
    /// the private key itself (PEM, or base64 PKCS#8), whose public half is taken. nil for
    /// anything else.
    public static func recipientPublicKey(from text: String) -> P256.KeyAgreement.PublicKey? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN") {
            if let key = try? P256.KeyAgreement.PublicKey(pemRepresentation: trimmed) { return key }
            return (try? P256.KeyAgreement.PrivateKey(pemRepresentation: trimmed))?.publicKey
        }
        guard let bytes = Data(base64Encoded: trimmed) else { return nil }
        if let key = try? P256.KeyAgreement.PublicKey(x963Representation: bytes) { return key }
        if let key = try? P256.KeyAgreement.PublicKey(derRepresentation: bytes) { return key }
        return (try? P256.KeyAgreement.PrivateKey(derRepresentation: bytes))?.publicKey
    }
}
