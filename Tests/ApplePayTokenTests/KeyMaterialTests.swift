import Foundation
import Testing

@testable import ApplePayToken

@Suite("Key material")
struct KeyMaterialTests {
    let minted: MintedTokens

    init() async throws {
        minted = try await MintedTokens.shared()
    }

    @Test(
        "EC keys load from PKCS#8, SEC1 with Bag Attributes and EC PARAMETERS, and DER",
        arguments: ["merchant-ec-key-pkcs8.pem", "merchant-ec-key-openssl-export.pem", "merchant-ec-key.der"]
    )
    func ecKeyShapes(file: String) throws {
        let key = try KeyMaterial.privateKey(from: minted.bytes(file))
        let identity = try MerchantIdentity(certificate: minted.certificate("merchant-ec-cert.cer"), privateKey: key)
        let token = try minted.token("ec-leading-zero-secret")
        #expect(identity.publicKeyHash == token.header.publicKeyHash)
    }

    @Test("an RSA key loads from PKCS#1 PEM and pairs with its certificate")
    func rsaKey() throws {
        let key = try KeyMaterial.privateKey(from: minted.bytes("merchant-rsa-key-pkcs1.pem"))
        guard case .rsa = key else {
            Issue.record("expected an RSA key")
            return
        }
        let identity = try MerchantIdentity(certificate: minted.certificate("merchant-rsa-cert.pem"), privateKey: key)
        #expect(identity.publicKeyHash == (try minted.token("rsa-rsa-leaf-emv")).header.publicKeyHash)
    }

    @Test("the merchant identifier comes from the certificate extension")
    func merchantIdentifierFromCertificate() throws {
        let identity = try MerchantIdentity(
            certificate: minted.certificate("merchant-ec-cert.pem"),
            privateKey: KeyMaterial.privateKey(from: minted.bytes("merchant-ec-key-pkcs8.pem"))
        )
        let byName = MerchantIdentity(
            merchantIdentifier: minted.merchantIdentifier,
            privateKey: identity.privateKey
        )
        #expect(identity.merchantIdentifierHash == byName.merchantIdentifierHash)
        #expect(identity.publicKeyHash == byName.publicKeyHash)
    }

    @Test("a certificate that is not the key's is refused")
    func mismatchedCertificate() throws {
        let error = #expect(throws: ApplePayTokenError.self) {
            try MerchantIdentity(
                certificate: minted.certificate("merchant-ec-cert.pem"),
                privateKey: KeyMaterial.privateKey(from: minted.bytes("stranger-ec-key.pem"))
            )
        }
        #expect(error?.code == .invalidKeyMaterial)
    }

    @Test("loose keys and certificates pair up by public key, in any order")
    func keyRingPairing() throws {
        let ring = try MerchantKeyRing(
            privateKeys: [
                KeyMaterial.privateKey(from: minted.bytes("merchant-rsa-key-pkcs1.pem")),
                KeyMaterial.privateKey(from: minted.bytes("merchant-ec-key-pkcs8.pem")),
                KeyMaterial.privateKey(from: minted.bytes("stranger-ec-key.pem")),
            ],
            certificates: [minted.certificate("merchant-ec-cert.pem"), minted.certificate("merchant-rsa-cert.pem")],
            merchantIdentifier: "merchant.stranger"
        )
        #expect(ring.identities.count == 3)
        #expect(ring.identity(forPublicKeyHash: try minted.token("rsa-rsa-leaf-emv").header.publicKeyHash) != nil)
        #expect(ring.identity(forPublicKeyHash: try minted.token("ec-leading-zero-secret").header.publicKeyHash) != nil)

        let error = #expect(throws: ApplePayTokenError.self) {
            try MerchantKeyRing(
                privateKeys: [KeyMaterial.privateKey(from: minted.bytes("stranger-ec-key.pem"))],
                certificates: [],
                merchantIdentifier: nil
            )
        }
        #expect(error?.code == .invalidKeyMaterial)
    }

    @Test("an encrypted key says how to decrypt it")
    func encryptedKey() throws {
        let error = #expect(throws: ApplePayTokenError.self) {
            try KeyMaterial.privateKey(from: minted.bytes("merchant-ec-key-encrypted.pem"))
        }
        #expect(error?.reason.contains("openssl pkcs8") == true)
    }

    @Test("junk is invalid key material", arguments: ["", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "hello"])
    func junk(text: String) {
        let error = #expect(throws: ApplePayTokenError.self) { try KeyMaterial.privateKey(from: Array(text.utf8)) }
        #expect(error?.code == .invalidKeyMaterial)
    }

    @Test("Apple Root CA - G3 is embedded and pinned")
    func appleRoot() {
        #expect(TrustRoots.apple.certificates.count == 1)
        #expect(TrustRoots.apple.isAppleOnly)
        #expect("\(TrustRoots.appleRootCAG3.subject)".contains("Apple Root CA - G3"))
    }
}
