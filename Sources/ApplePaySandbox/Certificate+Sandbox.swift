import ApplePayToken
import Foundation
import SwiftASN1
import X509

extension Certificate {
    /// The certificate's DER encoding.
    var derBytes: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(self)
            return serializer.serializedBytes
        }
    }

    /// The SubjectPublicKeyInfo exactly as this certificate encodes it: what a token's
    /// publicKeyHash is computed over (`publicKey.subjectPublicKeyInfoBytes` is only the key bits).
    var subjectPublicKeyInfoDER: [UInt8] {
        get throws { Array(try tbsField(5).encodedBytes) }
    }

    /// The issuer Name and the serial number INTEGER as encoded here: CMS names its signer with
    /// these, and copying the bytes keeps them identical to what verifiers compare.
    var issuerAndSerialNumberDER: (issuer: ArraySlice<UInt8>, serialNumber: ArraySlice<UInt8>) {
        get throws { (try tbsField(2).encodedBytes, try tbsField(0).encodedBytes) }
    }

    /// The TBSCertificate field at `index`, counting from serialNumber (the optional [0] version is skipped):
    /// 0 serialNumber, 1 signature, 2 issuer, 3 validity, 4 subject, 5 subjectPublicKeyInfo.
    private func tbsField(_ index: Int) throws -> ASN1Node {
        let root = try DER.parse(try derBytes)
        guard case .constructed(let certificateFields) = root.content,
            let tbs = certificateFields.first(where: { _ in true }),
            case .constructed(let tbsFields) = tbs.content
        else { throw SandboxError("a certificate is not X.509 DER") }
        let fields = Array(tbsFields)
        let offset = fields.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) ? 1 : 0
        guard fields.count > offset + index else { throw SandboxError("a certificate's TBSCertificate is too short") }
        return fields[offset + index]
    }

    /// PEM text of the certificate, newline-terminated like a PEM file.
    var pemString: String {
        get throws {
            let text = try serializeAsPEM().pemString
            return text.hasSuffix("\n") ? text : text + "\n"
        }
    }

    /// SHA-256 of the merchant identifier, from extension 1.2.840.113635.100.6.32, read as the
    /// token library reads it.
    var merchantIdentifierHash: [UInt8] {
        get throws { try MerchantIdentity.merchantIdentifierHash(in: self) }
    }
}

extension Certificate.Extension {
    /// A non-critical extension whose value is DER NULL: Apple's marker extensions look like this.
    static func marker(_ oid: ASN1ObjectIdentifier) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1Null())
        return Certificate.Extension(oid: oid, critical: false, value: serializer.serializedBytes[...])
    }

    /// The merchant identifier extension: DER UTF8String of uppercase hex SHA-256(merchantIdentifier).
    static func merchantIdentifier(hash: [UInt8]) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1UTF8String(Hex.encode(hash, uppercase: true)))
        return Certificate.Extension(oid: OID.merchantIdentifier, critical: false, value: serializer.serializedBytes[...])
    }
}

/// Key identifiers so that OpenSSL and other path builders find issuers the usual way.
enum KeyIdentifiers {
    static func subject(_ publicKey: Certificate.PublicKey) -> SubjectKeyIdentifier {
        SubjectKeyIdentifier(hash: publicKey)
    }

    static func authority(_ issuerPublicKey: Certificate.PublicKey) -> AuthorityKeyIdentifier {
        AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuerPublicKey).keyIdentifier)
    }
}
