import SwiftASN1

/// Object identifiers the token format relies on.
package enum OID {
    /// Apple Pay payment token signing leaf marker.
    package static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 29]
    /// Apple Application Integration CA marker.
    package static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 14]
    /// Merchant identifier (SHA-256, hex) in the merchant's payment processing certificate.
    package static let merchantIdentifier: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 32]

    package static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    package static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    package static let contentType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 3]
    package static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 4]
    package static let signingTime: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 5]

    // The same identifiers as content octets, for comparing CMS fields without decoding them.
    package static let signedDataContents = contents(of: signedData)
    package static let dataContents = contents(of: data)
    package static let contentTypeContents = contents(of: contentType)
    package static let messageDigestContents = contents(of: messageDigest)
    package static let signingTimeContents = contents(of: signingTime)
    package static let sha256Contents = contents(of: sha256)
    package static let ecdsaWithSHA256Contents = contents(of: ecdsaWithSHA256)

    // The signature AlgorithmIdentifiers exactly as Apple writes them in SignerInfo (RFC 5758 and
    // RFC 4055: ECDSA without parameters, RSA with NULL). RFC 3370's rsaEncryption means the same
    // to a verifier, but Apple never writes it, so a signature that says it is not Apple's.
    package static let ecdsaWithSHA256Identifier = [0x30, 0x0A, 0x06, 0x08] + ecdsaWithSHA256Contents
    package static let sha256WithRSAEncryptionIdentifier =
        [0x30, 0x0D, 0x06, 0x09] + contents(of: sha256WithRSAEncryption) + [0x05, 0x00]

    /// The DER content octets of an OID (its encoding without tag and length).
    package static func contents(of oid: ASN1ObjectIdentifier) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(oid)  // an OID literal always serializes
        return Array(serializer.serializedBytes.dropFirst(2))
    }

    package static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    package static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    package static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]
    package static let sha256WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 11]
}
