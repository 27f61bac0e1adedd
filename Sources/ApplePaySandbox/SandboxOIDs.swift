import SwiftASN1

/// Object identifiers the sandbox writes into certificates and signatures.
enum SandboxOID {
    /// Apple Pay payment token signing leaf marker.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 29]
    /// Apple Application Integration CA marker.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 14]
    /// Merchant identifier (SHA-256, hex) in a payment processing certificate.
    static let merchantIdentifier: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 32]

    static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    static let contentType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 3]
    static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 4]
    static let signingTime: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 5]
    static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
    static let sha256WithRSAEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 11]
}
