import ApplePayToken
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// The kind of key a merchant's payment processing certificate holds: EC (P-256) for EC_v1
/// tokens, RSA (2048-bit) for RSA_v1 tokens.
public enum SandboxMerchantKeyType: Sendable {
    case ec
    case rsa
}

/// A merchant "Apple Pay Payment Processing" identity for tests and the sandbox: key + certificate with
/// extension 1.2.840.113635.100.6.32 whose value is a DER UTF8String of the 64 uppercase hex characters of
/// SHA-256(merchantIdentifier). Issued by the authority's root. RSA keys are 2048-bit.
///
/// Load it into the token library as a merchant would:
///
/// ```swift
/// let identity = try MerchantIdentity(
///     certificate: sandbox.certificate,
///     privateKey: KeyMaterial.privateKey(from: Array(sandbox.privateKeyPEM.utf8))
/// )
/// ```
public struct SandboxMerchantIdentity: Sendable {
    /// The payment processing certificate as PEM.
    public let certificatePEM: String
    /// The private key as PKCS#8 PEM. Test-only key material: never log it.
    public let privateKeyPEM: String
    public let certificate: Certificate

    /// A new key and a payment processing certificate for `merchantIdentifier` (e.g. `merchant.com.example`),
    /// valid from one day before `now` for two years.
    public static func generate(
        merchantIdentifier: String,
        keyType: SandboxMerchantKeyType,
        issuer: SandboxAuthority,
        now: Date = Date()
    ) throws -> SandboxMerchantIdentity {
        let publicKey: Certificate.PublicKey
        let privateKeyPEM: String
        switch keyType {
        case .ec:
            let key = P256.KeyAgreement.PrivateKey()
            // The same curve point as a signing key: certificates carry the SubjectPublicKeyInfo only.
            publicKey = Certificate.PublicKey(try P256.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation))
            privateKeyPEM = key.pemRepresentation
        case .rsa:
            let key = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
            publicKey = Certificate.PublicKey(try _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation))
            privateKeyPEM = key.pkcs8PEMRepresentation
        }

        let certificate = try issuer.issuePaymentProcessingCertificate(
            for: publicKey,
            merchantIdentifier: merchantIdentifier,
            now: now
        )
        // Newline-terminated, like PEM files, so that they can be written out or concatenated as they are.
        return SandboxMerchantIdentity(
            certificatePEM: try certificate.pemString,
            privateKeyPEM: privateKeyPEM.hasSuffix("\n") ? privateKeyPEM : privateKeyPEM + "\n",
            certificate: certificate
        )
    }

    /// The token library's identity for this key and certificate: what a decryptor's key ring holds.
    public func merchantIdentity() throws -> MerchantIdentity {
        try MerchantIdentity(certificate: certificate, privateKey: KeyMaterial.privateKey(from: Array(privateKeyPEM.utf8)))
    }
}
