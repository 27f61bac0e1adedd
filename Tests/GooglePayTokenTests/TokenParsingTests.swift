import Foundation
import Testing

@testable import GooglePayToken

/// The token envelope is read strictly: Google's fields, their types, nothing else.
@Suite("Token parsing")
struct TokenParsingTests {
    static func moovText() throws -> String { try GooglePayFixtures.tokenText("moov-google-test") }

    @Test("the envelope's fields are read as Google writes them")
    func fields() throws {
        let token = try GooglePayFixtures.token("moov-google-test")
        #expect(token.protocolVersion == .ecV2)
        #expect(token.signature.first == 0x30)
        #expect(token.intermediateSigningKey?.signatures.count == 1)
        #expect(token.signedMessage.hasPrefix(#"{"encryptedMessage":"#))
        // The \u003d escapes inside the signed text are kept as Google signed them.
        #expect(token.signedMessage.contains(#"\u003d"#))
    }

    @Test(
        "each malformed envelope is refused with its cause",
        arguments: [
            (#""protocolVersion": "ECv2""#, #""protocolVersion": "ECv3""#, GooglePayTokenError.Code.unsupportedVersion),
            (#""protocolVersion": "ECv2""#, #""protocolVersion": 2"#, .malformedToken),
            (#""protocolVersion": "ECv2""#, #""protocolVersion": "ECv2", "extra": 1"#, .malformedToken),
            (#""protocolVersion": "ECv2""#, #""protocolVersion": "ECv2", "protocolVersion": "ECv2""#, .malformedToken),
            (#""protocolVersion": "ECv2""#, #""protocolVersion": "ECv1""#, .malformedToken),
            (#""signatures": ["#, #""signatures": [], "x": ["#, .malformedToken),
            (#""signature": "MEQ"#, #""signature": "!EQ"#, .malformedToken),
        ]
    )
    func malformedEnvelope(old: String, new: String, code: GooglePayTokenError.Code) throws {
        let text = try Self.moovText().replacingOccurrences(of: old, with: new)
        #expect(text != (try Self.moovText()))
        #expect(refusalCode { try GooglePaymentMethodToken(parsing: text) } == code)
    }

    @Test("hostile shapes are refused, not crashed on")
    func hostile() {
        let texts = [
            "", "null", "[]", "\"token\"", "{", String(repeating: "[", count: 100_000),
            #"{"protocolVersion":"ECv2","signature":"","signedMessage":"","intermediateSigningKey":{"signedKey":"","signatures":[""]}}"#,
            #"{"protocolVersion":"ECv2","signature":"MA==","signedMessage":"{}","intermediateSigningKey":{"signedKey":"{}","signatures":["MA=="]}}"#,
            String(repeating: "A", count: 70_000),
        ]
        // Parsed, or at the latest verified: the signatures are read as DER when they are checked.
        let decryptor = GooglePayTokenDecryptor(rootKeys: .googleTest)
        let recipient = GooglePayRecipient(recipientId: "gateway:test", privateKeys: [])
        for text in texts {
            #expect(refusalCode { try decryptor.decrypt(GooglePaymentMethodToken(parsing: text), for: recipient) } != nil)
        }
    }

    @Test("base64 is read canonically: unused bits set, or stray characters, are refused")
    func canonicalBase64() {
        #expect(StrictBase64.decode("AQ==") == [1])
        #expect(StrictBase64.decode("AQ") == [1])
        #expect(StrictBase64.decode("AR==") == nil)
        #expect(StrictBase64.decode("A Q==") == nil)
        #expect(StrictBase64.decode("AQ=") == nil)
        #expect(StrictBase64.decode("AQ==AQ==") == nil)
        #expect(StrictBase64.decode("") == nil)
    }

    @Test("a signed key or signed message that is not Google's JSON is refused after its signature")
    func signedTexts() {
        #expect(refusalCode { try SignedKey(#"{"keyValue":"MA==","keyExpiration":"1"}"#) } == .malformedToken)
        #expect(refusalCode { try SignedKey(#"{"keyValue":"MA==","keyExpiration":1}"#) } == .malformedToken)
        #expect(refusalCode { try EncryptedMessage(#"{"encryptedMessage":"","ephemeralPublicKey":"BA==","tag":"AA=="}"#) } == .malformedToken)
    }

    @Test("root keys: Google's document reads, unknown versions are skipped, bad keys refused")
    func rootKeys() throws {
        let keys = try GoogleRootSigningKeys(
            keysJSON:
                #"{"keys":[{"keyValue":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGnJ7Yo1sX9b4kr4Aa5uq58JRQfzD8bIJXw7WXaap/hVE+PnFxvjx4nVxt79SdRuUVeu++HZD0cGAv4IOznc96w==","protocolVersion":"ECv3"}]}"#
        )
        #expect(keys.keys.isEmpty)
        #expect(
            refusalCode { try GoogleRootSigningKeys(keysJSON: #"{"keys":[{"keyValue":"MA==","protocolVersion":"ECv2"}]}"#) } == .invalidKeyMaterial
        )
        #expect(refusalCode { try GoogleRootSigningKeys(keysJSON: "[]") } == .invalidKeyMaterial)
        // An ECv2 root without an expiration is never used, as Tink has it.
        let unexpiring = try GoogleRootSigningKey(keyValue: GooglePayFixtures.ecv2TestRootKeyValue, protocolVersion: .ecV2, keyExpiration: nil)
        #expect(!unexpiring.isUsable(for: .ecV2, at: Date()))
        #expect(refusalCode { try GooglePayRecipient.privateKey(from: "not a key") } == .invalidKeyMaterial)
    }

    @Test("no error text carries the PAN, the cryptogram or key material")
    func errorsCarryNoSecrets() async throws {
        let minted = try await PythonMintedTokens.shared()
        let pem = try minted.text("merchant-0.pem")
        let keyLine = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "unreachable"
        var texts: [String] = []
        let token = try minted.token("ecv2-cryptogram-3ds")
        for (recipientKeys, date) in [([0], Date().addingTimeInterval(2 * 86400)), ([1], Date()), ([0], Date().addingTimeInterval(8 * 86400))] {
            do {
                _ = try minted.decryptor(at: date).decrypt(token, for: minted.recipient(keys: recipientKeys))
            } catch {
                texts.append("\(error)")
            }
        }
        let message = try minted.decryptor().decrypt(token, for: minted.recipient())
        texts.append(message.message.description)
        #expect(texts.count == 4)
        for text in texts {
            #expect(!text.contains("4895370012003478"))
            #expect(!text.contains("AgAAAAAABk4DWZ4C28yUQAAAAAA="))
            #expect(!text.contains(keyLine))
        }
    }
}
