import Crypto
import Foundation
import Testing
import WireJSON

@testable import GooglePayToken

/// Public Google Pay tokens with their recipient keys and plaintext (see each Fixtures/*/SOURCE.txt).
/// They have expired, so each is validated at a time inside its validity.
@Suite("Public Google Pay vectors")
struct PublicVectorTests {
    /// Tink's and yoyowallet's tokens are valid from 2013 to 2029 except where a test says otherwise.
    static let tinkEra = GooglePayFixtures.date(milliseconds: 1_700_000_000_000)

    @Test("a real token from Google's test environment verifies against the embedded test root and decrypts")
    func googleTestEnvironmentToken() throws {
        let decryptor = GooglePayTokenDecryptor(
            rootKeys: .googleTest,
            clock: { GooglePayFixtures.date(milliseconds: 1_645_490_000_000) }
        )
        let recipient = GooglePayRecipient(
            recipientId: "merchant:12345678901234567890",
            privateKeys: [try GooglePayFixtures.privateKey("moov-google-test")]
        )
        let token = try GooglePayFixtures.token("moov-google-test")
        let unsealed = try decryptor.unseal(token, for: recipient)
        #expect(try JSONValue(plaintext: unsealed.plaintext) == GooglePayFixtures.expected("moov-google-test"))

        let result = try decryptor.decrypt(token, for: recipient)
        #expect(result.protocolVersion == .ecV2)
        #expect(result.messageId.hasPrefix("AH2EjtdXWjOxGkyAxyLlyakv"))
        #expect(result.keyIndex == 0)
        let details = result.message.paymentMethodDetails
        #expect(details.authMethod == .panOnly)
        #expect(details.pan == "4111111111111111")
        #expect(details.expirationMonth == 12 && details.expirationYear == 2027)
        #expect(details.cryptogram == nil)
        // Google's assuranceDetails, undocumented in the token's tables, is kept.
        #expect(details.additionalFields["assuranceDetails"]?["accountVerified"] == .bool(true))
        #expect(result.intermediateKeyExpiration == GooglePayFixtures.date(milliseconds: 1_645_569_858_115))

        // The same token a day later: its message has expired (before its intermediate key).
        let later = GooglePayTokenDecryptor(rootKeys: .googleTest, clock: { GooglePayFixtures.date(milliseconds: 1_645_510_000_000) })
        #expect(throws: GooglePayTokenError.self) { try later.decrypt(token, for: recipient) }
        #expect(refusalCode { try later.decrypt(token, for: recipient) } == .messageExpired)
    }

    @Test("Google test tokens for an unpublished recipient: the root and the key expiry check, decryption rotates keys")
    func basisTheoryTokens() throws {
        let keys = try ["basistheory-old", "basistheory-new"].map(GooglePayFixtures.privateKey)
        for (index, vector) in ["basistheory-old", "basistheory-new"].enumerated() {
            let token = try GooglePayFixtures.token(vector)
            let keyExpiration = try SignedKey(#require(token.intermediateSigningKey).signedKey).expiration
            // Signed by Google's test root: the checks get as far as the message signature, which
            // is for a recipient id the vector does not name.
            let inTime = GooglePayTokenDecryptor(rootKeys: .googleTest, clock: { keyExpiration.addingTimeInterval(-3600) })
            #expect(refusalCode { try inTime.verifySignatures(of: token, recipientId: "gateway:unknown") } == .messageSignatureInvalid)
            let late = GooglePayTokenDecryptor(rootKeys: .googleTest, clock: { keyExpiration.addingTimeInterval(1) })
            #expect(refusalCode { try late.verifySignatures(of: token, recipientId: "gateway:unknown") } == .intermediateKeyExpired)
            let otherRoot = GooglePayTokenDecryptor(rootKeys: try GooglePayFixtures.tinkRoots(), clock: { keyExpiration.addingTimeInterval(-3600) })
            #expect(refusalCode { try otherRoot.verifySignatures(of: token, recipientId: "gateway:unknown") } == .untrustedIntermediateKey)

            // Both keys configured, the right one opens it, whichever comes first.
            let opened = try MessageCipher.open(EncryptedMessage(token.signedMessage), version: .ecV2, privateKeys: keys)
            #expect(opened.keyIndex == index)
            #expect(try JSONValue(plaintext: opened.plaintext) == GooglePayFixtures.expected(vector))
            let reversed = try MessageCipher.open(EncryptedMessage(token.signedMessage), version: .ecV2, privateKeys: keys.reversed())
            #expect(reversed.keyIndex == 1 - index)
            #expect(throws: GooglePayTokenError.self) {
                try MessageCipher.open(EncryptedMessage(token.signedMessage), version: .ecV2, privateKeys: [keys[1 - index]])
            }
        }
    }

    @Test("Tink's ECv2 token (via yoyowallet) verifies against Tink's root and decrypts to the expected message")
    func tinkECv2() throws {
        let decryptor = GooglePayTokenDecryptor(rootKeys: try GooglePayFixtures.tinkRoots(), clock: { Self.tinkEra })
        let recipient = try Self.tinkRecipient("yoyo-tink-valid")
        let result = try decryptor.decrypt(GooglePayFixtures.token("yoyo-tink-valid"), for: recipient)
        #expect(result.message.paymentMethodDetails.pan == "4111111111111111")
        #expect(result.message.paymentMethodDetails.expirationYear == 2026)
        #expect(result.message.messageExpiration == GooglePayFixtures.date(milliseconds: 32_506_264_800_000))
        let unsealed = try decryptor.unseal(GooglePayFixtures.token("yoyo-tink-valid"), for: recipient)
        #expect(try JSONValue(plaintext: unsealed.plaintext) == GooglePayFixtures.expected("yoyo-tink-valid"))
    }

    @Test(
        "each refused public vector gets its own error",
        arguments: [
            ("yoyo-tink-expired-message", GooglePayTokenError.Code.messageExpired),
            ("yoyo-tink-invalid-tag", .tagMismatch),
            ("yoyo-tink-expired-intermediate", .intermediateKeyExpired),
            ("yoyo-tink-plaintext", .malformedMessage),
        ]
    )
    func refusedVectors(vector: String, code: GooglePayTokenError.Code) throws {
        let decryptor = GooglePayTokenDecryptor(rootKeys: try GooglePayFixtures.tinkRoots(), clock: { Self.tinkEra })
        let token = try GooglePayFixtures.token(vector)
        #expect(refusalCode { try decryptor.decrypt(token, for: Self.tinkRecipient(vector)) } == code)
    }

    @Test("the expired-message vector still decrypts to its plaintext: only its expiration refuses it")
    func expiredMessagePlaintext() throws {
        let decryptor = GooglePayTokenDecryptor(rootKeys: try GooglePayFixtures.tinkRoots(), clock: { Self.tinkEra })
        for vector in ["yoyo-tink-expired-message", "yoyo-tink-plaintext"] {
            let unsealed = try decryptor.unseal(GooglePayFixtures.token(vector), for: Self.tinkRecipient(vector))
            #expect(unsealed.plaintext == Array(try GooglePayFixtures.text("\(vector)/expected.json").utf8))
        }
    }

    @Test("Tink's ECv1 token verifies against Tink's ECv1 root and decrypts to \"plaintext\"")
    func tinkECv1() throws {
        let decryptor = GooglePayTokenDecryptor(rootKeys: try GooglePayFixtures.tinkRoots(), clock: { Self.tinkEra })
        let token = try GooglePayFixtures.token("tink-ecv1")
        #expect(token.protocolVersion == .ecV1)
        #expect(token.intermediateSigningKey == nil)
        let unsealed = try decryptor.unseal(token, for: Self.tinkRecipient("tink-ecv1"))
        #expect(String(decoding: unsealed.plaintext, as: UTF8.self) == "plaintext")
        #expect(unsealed.verified.intermediateKeyExpiration == nil)

        // Another recipient, or the ECv2 root only: the root's signature does not verify.
        var wrong = try Self.tinkRecipient("tink-ecv1")
        wrong.recipientId = "not someRecipient"
        #expect(refusalCode { try decryptor.unseal(token, for: wrong) } == .messageSignatureInvalid)
        let ecv2Only = GooglePayTokenDecryptor(rootKeys: .googleTest, clock: { Self.tinkEra })
        #expect(refusalCode { try ecv2Only.unseal(token, for: Self.tinkRecipient("tink-ecv1")) } == .messageSignatureInvalid)
        let noECv1 = GooglePayTokenDecryptor(rootKeys: GoogleRootSigningKeys([]), clock: { Self.tinkEra })
        #expect(refusalCode { try noECv1.unseal(token, for: Self.tinkRecipient("tink-ecv1")) } == .noUsableRootKey)
    }

    @Test("Google's test root signs for ECv2, not for another protocol version or after its expiration")
    func embeddedTestRoots() throws {
        let keys = GoogleRootSigningKeys.googleTest.keys
        #expect(keys.count == 3)
        #expect(Set(keys.map(\.protocolVersion)) == [.ecV1, .ecV2, .ecV2SigningOnly])
        let expiry = GooglePayFixtures.date(milliseconds: 2_154_841_200_000)
        #expect(GoogleRootSigningKeys.googleTest.usable(for: .ecV2, at: expiry.addingTimeInterval(-1)).count == 1)
        #expect(GoogleRootSigningKeys.googleTest.usable(for: .ecV2, at: expiry).isEmpty)
    }

    static func tinkRecipient(_ vector: String) throws -> GooglePayRecipient {
        GooglePayRecipient(recipientId: "someRecipient", privateKeys: [try GooglePayFixtures.privateKey(vector)])
    }
}
