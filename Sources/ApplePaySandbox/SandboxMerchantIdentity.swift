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

        let validity = SandboxAuthority.Validity(
            from: now.addingTimeInterval(-86_400),
            to: now.addingTimeInterval(2 * 365.25 * 86_400)
        )
        let identifierHash = Array(SHA256.hash(data: Data(merchantIdentifier.utf8)))
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: validity.from,
            notValidAfter: validity.to,
            issuer: issuer.root.subject,
            subject: try DistinguishedName {
                CountryName("US")
                OrganizationName(SandboxAuthority.Names.organization)
                OrganizationalUnitName(SandboxAuthority.Names.organizationalUnit)
                CommonName("Apple Pay Payment Processing:\(merchantIdentifier)")
                UserID(merchantIdentifier)
            },
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(keyType == .ec ? KeyUsage(keyAgreement: true) : KeyUsage(keyEncipherment: true))
                KeyIdentifiers.subject(publicKey)
                KeyIdentifiers.authority(issuer.root.publicKey)
                try Certificate.Extension.merchantIdentifier(hash: identifierHash)
            },
            issuerPrivateKey: Certificate.PrivateKey(issuer.rootKey)
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

/// The user ID attribute (0.9.2342.19200300.100.1.1): Apple puts the merchant identifier there.
private struct UserID: RelativeDistinguishedNameConvertible {
    var value: String

    init(_ value: String) {
        self.value = value
    }

    func makeRDN() throws -> RelativeDistinguishedName {
        RelativeDistinguishedName(.init(type: [0, 9, 2342, 19_200_300, 100, 1, 1], utf8String: value))
    }
}
