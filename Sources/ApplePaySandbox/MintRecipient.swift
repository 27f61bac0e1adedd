import ApplePayToken
import Crypto
import Foundation
import X509
import _CryptoExtras

/// Who a token is encrypted for: a merchant's payment processing public key, the hash that
/// names it in the token header, and the merchant identifier hash that enters the EC_v1 KDF.
public struct MintRecipient: Sendable {
    enum PublicKey: Sendable {
        case ec(P256.KeyAgreement.PublicKey)
        /// SubjectPublicKeyInfo DER (`_RSA.Encryption.PublicKey` is not Sendable; it is rebuilt per mint).
        case rsa(subjectPublicKeyInfo: [UInt8])
    }

    let publicKey: PublicKey
    /// SHA-256 of the SubjectPublicKeyInfo DER: the token's header.publicKeyHash.
    public let publicKeyHash: [UInt8]
    /// SHA-256 of the merchant identifier: party V of the EC_v1 key derivation.
    public let merchantIdentifierHash: [UInt8]

    /// The recipient named by a payment processing certificate: its key, the merchant identifier hash
    /// from extension 1.2.840.113635.100.6.32, and publicKeyHash = SHA-256 of the certificate's
    /// SubjectPublicKeyInfo DER exactly as encoded in the certificate.
    public init(certificate: Certificate) throws {
        if let key = P256.Signing.PublicKey(certificate.publicKey) {
            publicKey = .ec(try P256.KeyAgreement.PublicKey(rawRepresentation: key.rawRepresentation))
        } else if let key = _RSA.Signing.PublicKey(certificate.publicKey) {
            publicKey = .rsa(subjectPublicKeyInfo: Array(key.derRepresentation))
        } else {
            throw SandboxError("the certificate's key is neither P-256 nor RSA, so Apple Pay cannot encrypt to it")
        }
        publicKeyHash = Array(SHA256.hash(data: try certificate.subjectPublicKeyInfoDER))
        merchantIdentifierHash = try certificate.merchantIdentifierHash
    }

    /// The recipient a token library identity decrypts for (its public key follows from the private key).
    public init(identity: MerchantIdentity) {
        switch identity.privateKey {
        case .ec(let key): publicKey = .ec(key.publicKey)
        case .rsa(let key): publicKey = .rsa(subjectPublicKeyInfo: Array(key.publicKey.derRepresentation))
        }
        publicKeyHash = identity.publicKeyHash
        merchantIdentifierHash = identity.merchantIdentifierHash
    }
}
