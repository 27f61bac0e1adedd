import ApplePayToken
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// A certificate authority shaped like Apple's, for tests, the CLI and the sandbox endpoint.
///
/// Apple signs tokens with a leaf (marker extension 1.2.840.113635.100.6.29) issued by the Apple
/// Application Integration CA (marker 1.2.840.113635.100.6.2.14), issued by Apple Root CA - G3.
/// This authority has the same shape under its own root, "Apple Pay Gateway Sandbox Root CA", which
/// only a decryptor configured with ``trustRoots`` accepts; production decryptors (trusting
/// `TrustRoots.apple` alone) reject everything it signs.
///
/// The root also issues merchant payment processing certificates (``SandboxMerchantIdentity``).
///
/// ```swift
/// let authority = try SandboxAuthority.loadOrCreate(at: URL(filePath: "Config/sandbox-ca"))
/// let token = try TokenMinter(authority: authority).mint(MintRequest(), for: recipient)
/// let decryptor = ApplePayTokenDecryptor(trustRoots: authority.trustRoots)
/// ```
public struct SandboxAuthority: Sendable {
    /// Self-signed ECDSA P-384 root, like Apple Root CA - G3.
    public let root: Certificate
    /// P-256 CA issued by the root, with the intermediate marker 1.2.840.113635.100.6.2.14.
    public let intermediate: Certificate
    /// P-256 signing leaf issued by the intermediate, with the leaf marker 1.2.840.113635.100.6.29.
    public let ecLeaf: Certificate
    /// RSA-2048 signing leaf issued by the intermediate, with the leaf marker.
    public let rsaLeaf: Certificate

    let rootKey: P384.Signing.PrivateKey
    let intermediateKey: P256.Signing.PrivateKey
    let ecLeafKey: P256.Signing.PrivateKey
    let rsaLeafKey: _RSA.Signing.PrivateKey

    /// What a decryptor must trust to accept tokens this authority signs: its root alone.
    public var trustRoots: TrustRoots { TrustRoots([root]) }

    /// The common name of every sandbox root: a chain ending there is a sandbox token's.
    public static var rootCommonName: String { Names.root }

    /// The common names, so that anyone reading a certificate sees at once it is not Apple's.
    enum Names {
        static let organization = "Apple Pay Gateway Sandbox"
        static let organizationalUnit = "TEST ONLY - not trusted in production"
        static let root = "Apple Pay Gateway Sandbox Root CA"
        static let intermediate = "Apple Pay Gateway Sandbox Application Integration CA"
        static let ecLeaf = "Apple Pay Gateway Sandbox ecc-smp-broker-sign"
        static let rsaLeaf = "Apple Pay Gateway Sandbox rsa-smp-broker-sign"
    }

    /// A new authority with fresh keys (the RSA key takes a moment).
    ///
    /// Every certificate is valid from one day before `now` to twenty years after it, so tokens
    /// minted with a signing time in the recent past still verify.
    public static func generate(now: Date = Date()) throws -> SandboxAuthority {
        let validity = Validity(from: now.addingTimeInterval(-86_400), to: now.addingTimeInterval(20 * 365.25 * 86_400))
        let rootKey = P384.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let ecLeafKey = P256.Signing.PrivateKey()
        let rsaLeafKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)

        let rootName = try distinguishedName(Names.root)
        let rootPublicKey = Certificate.PublicKey(rootKey.publicKey)
        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: rootPublicKey,
            notValidBefore: validity.from,
            notValidAfter: validity.to,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                KeyIdentifiers.subject(rootPublicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )

        let intermediatePublicKey = Certificate.PublicKey(intermediateKey.publicKey)
        let intermediate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: intermediatePublicKey,
            notValidBefore: validity.from,
            notValidAfter: validity.to,
            issuer: root.subject,
            subject: try distinguishedName(Names.intermediate),
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                KeyIdentifiers.subject(intermediatePublicKey)
                KeyIdentifiers.authority(rootPublicKey)
                try Certificate.Extension.marker(OID.intermediateMarker)
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )

        func leaf(_ name: String, _ publicKey: Certificate.PublicKey) throws -> Certificate {
            try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: publicKey,
                notValidBefore: validity.from,
                notValidAfter: validity.to,
                issuer: intermediate.subject,
                subject: try distinguishedName(name),
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    KeyIdentifiers.subject(publicKey)
                    KeyIdentifiers.authority(intermediatePublicKey)
                    try Certificate.Extension.marker(OID.leafMarker)
                },
                issuerPrivateKey: Certificate.PrivateKey(intermediateKey)
            )
        }

        return SandboxAuthority(
            root: root,
            intermediate: intermediate,
            ecLeaf: try leaf(Names.ecLeaf, Certificate.PublicKey(ecLeafKey.publicKey)),
            rsaLeaf: try leaf(Names.rsaLeaf, Certificate.PublicKey(rsaLeafKey.publicKey)),
            rootKey: rootKey,
            intermediateKey: intermediateKey,
            ecLeafKey: ecLeafKey,
            rsaLeafKey: rsaLeafKey
        )
    }

    static func distinguishedName(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            CountryName("US")
            OrganizationName(Names.organization)
            OrganizationalUnitName(Names.organizationalUnit)
            CommonName(commonName)
        }
    }

    /// A validity period; certificates are issued for whole seconds (X.509 times have no fractions).
    struct Validity {
        var from: Date
        var to: Date

        init(from: Date, to: Date) {
            self.from = Date(timeIntervalSince1970: from.timeIntervalSince1970.rounded(.down))
            self.to = Date(timeIntervalSince1970: to.timeIntervalSince1970.rounded(.down))
        }
    }
}
