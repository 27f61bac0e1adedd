import Crypto
import SwiftASN1
import X509
import _CryptoExtras

/// A new payment processing key and the certificate signing request (CSR) that Apple's developer
/// portal asks for under "Apple Pay Payment Processing Certificate". The private key never leaves
/// the merchant: Apple signs the CSR, which carries only the public key.
public struct PaymentProcessingKeyRequest: Sendable {
    /// EC P-256 keys receive EC_v1 tokens (every region); RSA-2048 keys receive RSA_v1 tokens
    /// (China mainland only).
    public enum Algorithm: String, Sendable, CaseIterable {
        case ec
        case rsa
    }

    public let algorithm: Algorithm
    /// PKCS#8 PEM. Secret: written with mode 0600 and never printed.
    let privateKeyPEM: String
    public let request: CertificateSigningRequest

    public static func generate(_ algorithm: Algorithm, merchantIdentifier: String) throws -> PaymentProcessingKeyRequest {
        let signingKey: Certificate.PrivateKey
        let privateKeyPEM: String
        let signatureAlgorithm: Certificate.SignatureAlgorithm
        switch algorithm {
        case .ec:
            let key = P256.KeyAgreement.PrivateKey()
            // The same scalar as a signing key: the CSR must be signed by the key it requests a certificate for.
            signingKey = Certificate.PrivateKey(try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation))
            privateKeyPEM = key.pemRepresentation
            signatureAlgorithm = .ecdsaWithSHA256
        case .rsa:
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            signingKey = Certificate.PrivateKey(key)
            privateKeyPEM = key.pkcs8PEMRepresentation
            signatureAlgorithm = .sha256WithRSAEncryption
        }
        let request = try CertificateSigningRequest(
            version: .v1,
            subject: try DistinguishedName { CommonName(merchantIdentifier) },
            privateKey: signingKey,
            attributes: CertificateSigningRequest.Attributes(),
            signatureAlgorithm: signatureAlgorithm
        )
        return PaymentProcessingKeyRequest(
            algorithm: algorithm,
            privateKeyPEM: privateKeyPEM.hasSuffix("\n") ? privateKeyPEM : privateKeyPEM + "\n",
            request: request
        )
    }

    /// The CSR as PEM, the form Keychain Access saves as `.certSigningRequest` and the portal accepts.
    public var requestPEM: String {
        get throws {
            let text = try request.serializeAsPEM().pemString
            return text.hasSuffix("\n") ? text : text + "\n"
        }
    }
}
