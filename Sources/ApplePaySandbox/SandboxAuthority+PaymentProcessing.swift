import ApplePayToken
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

extension SandboxAuthority {
    /// A merchant's "Apple Pay Payment Processing" certificate for `publicKey`, issued by this
    /// authority's root as Apple's portal issues one for a merchant's CSR: extension
    /// 1.2.840.113635.100.6.32 holds the DER UTF8String of uppercase hex SHA-256(merchantIdentifier),
    /// the key usage is key agreement (EC) or key encipherment (RSA). Valid from one day before
    /// `now` for two years.
    public func issuePaymentProcessingCertificate(
        for publicKey: Certificate.PublicKey,
        merchantIdentifier: String,
        now: Date = Date()
    ) throws -> Certificate {
        let isRSA = _RSA.Signing.PublicKey(publicKey) != nil
        guard isRSA || P256.Signing.PublicKey(publicKey) != nil else {
            throw SandboxError("a payment processing key must be EC P-256 or RSA")
        }
        let validity = Validity(from: now.addingTimeInterval(-86_400), to: now.addingTimeInterval(2 * 365.25 * 86_400))
        let identifierHash = Array(SHA256.hash(data: Data(merchantIdentifier.utf8)))
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: validity.from,
            notValidAfter: validity.to,
            issuer: root.subject,
            subject: try DistinguishedName {
                CountryName("US")
                OrganizationName(Names.organization)
                OrganizationalUnitName(Names.organizationalUnit)
                CommonName("Apple Pay Payment Processing:\(merchantIdentifier)")
                UserID(merchantIdentifier)
            },
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(isRSA ? KeyUsage(keyEncipherment: true) : KeyUsage(keyAgreement: true))
                KeyIdentifiers.subject(publicKey)
                KeyIdentifiers.authority(root.publicKey)
                try Certificate.Extension.merchantIdentifier(hash: identifierHash)
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
    }

    /// Signs a merchant's certificate signing request the way Apple's portal would, so that the
    /// whole key set-up (`gateway applepay-identity`) runs without Apple. The request's own
    /// signature must verify: it proves the requester holds the private key.
    public func signPaymentProcessingRequest(
        _ request: CertificateSigningRequest,
        merchantIdentifier: String,
        now: Date = Date()
    ) throws -> Certificate {
        guard request.publicKey.isValidSignature(request.signature, for: request) else {
            throw SandboxError("the certificate signing request's signature does not verify with its own public key")
        }
        return try issuePaymentProcessingCertificate(for: request.publicKey, merchantIdentifier: merchantIdentifier, now: now)
    }
}

/// The user ID attribute (0.9.2342.19200300.100.1.1): Apple puts the merchant identifier there.
struct UserID: RelativeDistinguishedNameConvertible {
    var value: String

    init(_ value: String) {
        self.value = value
    }

    func makeRDN() throws -> RelativeDistinguishedName {
        RelativeDistinguishedName(.init(type: [0, 9, 2342, 19_200_300, 100, 1, 1], utf8String: value))
    }
}
