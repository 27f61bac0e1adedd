import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// One merchant payment processing key: what Apple encrypted to, and how to find it.
///
/// Built from the payment processing certificate and its private key (the merchant identifier
/// comes from the certificate's extension 1.2.840.113635.100.6.32), or from the merchant
/// identifier string and the private key alone.
public struct MerchantIdentity: Sendable {
    // _RSA.Encryption.PrivateKey is not marked Sendable, but it is an immutable BoringSSL key
    // whose private operations are safe to run concurrently (blinding is locked inside BoringSSL).
    public enum PrivateKey: @unchecked Sendable {
        case ec(P256.KeyAgreement.PrivateKey)
        case rsa(_RSA.Encryption.PrivateKey)
    }

    public let privateKey: PrivateKey
    /// SHA-256 of the SubjectPublicKeyInfo DER: what a token's header.publicKeyHash names.
    public let publicKeyHash: [UInt8]
    /// Party V of the EC_v1 key derivation: SHA-256 of the merchant identifier.
    public let merchantIdentifierHash: [UInt8]
    /// The RSA key again, loaded into OpenSSL for the fast unwrap (nil for EC keys).
    let openSSLRSAKey: OpenSSLRSAKey?

    /// An identity from the payment processing certificate and its private key.
    public init(certificate: Certificate, privateKey: PrivateKey) throws(ApplePayTokenError) {
        guard certificate.publicKey == privateKey.certificatePublicKey else {
            throw ApplePayTokenError(.invalidKeyMaterial, "the certificate does not belong to the private key")
        }
        self.privateKey = privateKey
        self.publicKeyHash = Array(SHA256.hash(data: try Self.subjectPublicKeyInfo(of: certificate)))
        self.merchantIdentifierHash = try Self.merchantIdentifierHash(in: certificate)
        self.openSSLRSAKey = privateKey.openSSLRSAKey
    }

    /// An identity from the merchant identifier string (e.g. `merchant.com.example`) and the private key.
    public init(merchantIdentifier: String, privateKey: PrivateKey) {
        self.privateKey = privateKey
        self.publicKeyHash = Array(SHA256.hash(data: privateKey.subjectPublicKeyInfo))
        self.merchantIdentifierHash = Array(SHA256.hash(data: Data(merchantIdentifier.utf8)))
        self.openSSLRSAKey = privateKey.openSSLRSAKey
    }

    /// The publicKeyHash as it appears in tokens (base64).
    public var publicKeyHashBase64: String { Base64.encode(publicKeyHash) }

    /// The SubjectPublicKeyInfo exactly as the certificate encodes it (what Apple hashes).
    private static func subjectPublicKeyInfo(of certificate: Certificate) throws(ApplePayTokenError) -> [UInt8] {
        do {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            let fields = try BERElement.parse(serializer.serializedBytes[...]).children()
            // TBSCertificate: [0] version?, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo
            let tbs = try fields.first.map { element throws(CMSFormatError) in try element.children() } ?? []
            let offset = tbs.first?.tag == BERElement.contextSpecificConstructed(0) ? 1 : 0
            guard tbs.count > offset + 5 else { throw CMSFormatError("certificate") }
            return Array(tbs[offset + 5].encoded)
        } catch {
            throw ApplePayTokenError(.invalidKeyMaterial, "the certificate's public key cannot be read")
        }
    }

    /// Who a payment processing certificate names, for messages: Apple puts the merchant
    /// identifier in the subject's UID (0.9.2342.19200300.100.1.1); else its common name.
    package static func merchantName(in certificate: Certificate) -> String {
        let userID: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]
        var commonName: String?
        for relativeName in certificate.subject {
            for attribute in relativeName {
                if attribute.type == userID { return String(describing: attribute.value) }
                if attribute.type == .RDNAttributeType.commonName { commonName = String(describing: attribute.value) }
            }
        }
        return commonName ?? String(describing: certificate.subject)
    }

    /// The merchant identifier extension holds the SHA-256 as 64 hex characters in a DER string.
    package static func merchantIdentifierHash(in certificate: Certificate) throws(ApplePayTokenError) -> [UInt8] {
        guard let value = certificate.extensions[oid: OID.merchantIdentifier]?.value else {
            throw ApplePayTokenError(
                .invalidKeyMaterial,
                "the certificate has no merchant identifier extension 1.2.840.113635.100.6.32: is it the Payment Processing certificate? Otherwise configure the merchant identifier instead"
            )
        }
        if let node = try? DER.parse(value), case .primitive(let content) = node.content {
            if let hash = Hex.decode(String(decoding: content, as: UTF8.self)), hash.count == 32 { return hash }
            if node.identifier == .octetString, content.count == 32 { return Array(content) }
        }
        if let hash = Hex.decode(String(decoding: value, as: UTF8.self)), hash.count == 32 { return hash }
        throw ApplePayTokenError(.invalidKeyMaterial, "the merchant identifier extension does not hold a SHA-256")
    }
}

extension MerchantIdentity.PrivateKey {
    var openSSLRSAKey: OpenSSLRSAKey? {
        guard case .rsa(let key) = self else { return nil }
        return OpenSSLRSAKey(der: Array(key.derRepresentation))
    }

    var subjectPublicKeyInfo: Data {
        switch self {
        case .ec(let key): key.publicKey.derRepresentation
        case .rsa(let key): key.publicKey.derRepresentation
        }
    }

    /// Whether `certificate` was issued for this key.
    package func isKey(of certificate: Certificate) -> Bool {
        certificate.publicKey == certificatePublicKey
    }

    var certificatePublicKey: Certificate.PublicKey? {
        switch self {
        case .ec(let key):
            (try? P256.Signing.PublicKey(rawRepresentation: key.publicKey.rawRepresentation)).map(Certificate.PublicKey.init)
        case .rsa(let key):
            (try? _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation)).map(Certificate.PublicKey.init)
        }
    }
}
