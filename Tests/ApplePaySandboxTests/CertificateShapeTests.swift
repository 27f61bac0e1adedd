import ApplePaySandbox
import ApplePayToken
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
import _CryptoExtras

@Suite("The authority's certificates are shaped like Apple's")
struct CertificateShapeTests {
    let authority = SandboxFixtures.authority
    private static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 29]
    private static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 14]
    private static let merchantIdentifier: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 32]

    @Test("root: self-signed CA named as the sandbox root, trusted alone")
    func root() throws {
        let root = authority.root
        #expect(root.subject == root.issuer)
        #expect(root.publicKey.isValidSignature(root.signature, for: root))
        #expect(root.subject.description.contains("CN=Apple Pay Gateway Sandbox Root CA"))
        #expect(try root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        #expect(root.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        #expect(try root.extensions.keyUsage?.keyCertSign == true)
        #expect(P384.Signing.PublicKey(root.publicKey) != nil)
        #expect(authority.trustRoots.certificates == [root])
    }

    @Test("intermediate: CA issued by the root with the intermediate marker (DER NULL, not critical)")
    func intermediate() throws {
        let intermediate = authority.intermediate
        #expect(intermediate.issuer == authority.root.subject)
        #expect(authority.root.publicKey.isValidSignature(intermediate.signature, for: intermediate))
        #expect(try intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try intermediate.extensions.keyUsage?.keyCertSign == true)
        let marker = try #require(intermediate.extensions[oid: Self.intermediateMarker])
        #expect(marker.critical == false)
        #expect(Array(marker.value) == [0x05, 0x00])
        #expect(intermediate.extensions[oid: Self.leafMarker] == nil)
    }

    @Test("leaves: P-256 and RSA-2048, issued by the intermediate, with the leaf marker")
    func leaves() throws {
        for leaf in [authority.ecLeaf, authority.rsaLeaf] {
            #expect(leaf.issuer == authority.intermediate.subject)
            #expect(authority.intermediate.publicKey.isValidSignature(leaf.signature, for: leaf))
            #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
            let marker = try #require(leaf.extensions[oid: Self.leafMarker])
            #expect(marker.critical == false)
            #expect(Array(marker.value) == [0x05, 0x00])
        }
        #expect(P256.Signing.PublicKey(authority.ecLeaf.publicKey) != nil)
        #expect(_RSA.Signing.PublicKey(authority.rsaLeaf.publicKey)?.keySizeInBits == 2048)
    }

    @Test("validity: from one day before generation to twenty years after")
    func validity() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000.75)
        let generated = try SandboxAuthority.generate(now: now)
        for certificate in [generated.root, generated.intermediate, generated.ecLeaf, generated.rsaLeaf] {
            #expect(abs(certificate.notValidBefore.timeIntervalSince(now) + 86_400) <= 1)
            let years = certificate.notValidAfter.timeIntervalSince(now) / (365.25 * 86_400)
            #expect(abs(years - 20) < 0.001)
        }
    }

    @Test("merchant certificates carry the merchant identifier hash as uppercase hex in a DER UTF8String")
    func merchantCertificate() throws {
        for (merchant, isRSA) in [(SandboxFixtures.ecMerchant, false), (SandboxFixtures.rsaMerchant, true)] {
            let certificate = merchant.certificate
            #expect(certificate.issuer == authority.root.subject)
            #expect(authority.root.publicKey.isValidSignature(certificate.signature, for: certificate))
            #expect(try Certificate(pemEncoded: merchant.certificatePEM) == certificate)
            #expect(merchant.certificatePEM.hasSuffix("-----END CERTIFICATE-----\n"))
            #expect(merchant.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            #expect(merchant.privateKeyPEM.hasSuffix("-----END PRIVATE KEY-----\n"))
            let value = try #require(certificate.extensions[oid: Self.merchantIdentifier]?.value)
            let hash = SandboxFixtures.sha256(Array(SandboxFixtures.merchantIdentifier.utf8))
            let expectedHex = hash.map { String(format: "%02X", $0) }.joined()
            #expect(Array(value) == [0x0C, 0x40] + Array(expectedHex.utf8))
            if isRSA {
                #expect(_RSA.Signing.PublicKey(certificate.publicKey)?.keySizeInBits == 2048)
            } else {
                #expect(P256.Signing.PublicKey(certificate.publicKey) != nil)
            }
            #expect(try merchant.merchantIdentity().merchantIdentifierHash == hash)
        }
    }
}
