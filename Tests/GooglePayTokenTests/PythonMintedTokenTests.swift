import Foundation
import GooglePayToken
import Testing
import WireJSON

/// Tokens from an independent implementation (Python `cryptography`), decrypted by this library.
@Suite("Tokens minted in Python")
struct PythonMintedTokenTests {
    let minted: PythonMintedTokens

    init() async throws {
        minted = try await PythonMintedTokens.shared()
    }

    @Test("an ECv2 PAN_ONLY token decrypts to its plaintext, gatewayMerchantId included")
    func panOnly() throws {
        let unsealed = try minted.decryptor().unseal(minted.token("ecv2-pan-only"), for: minted.recipient())
        #expect(try JSONValue(parsing: unsealed.plaintext) == minted.expected("ecv2-pan-only"))
        let result = try minted.decryptor().decrypt(minted.token("ecv2-pan-only"), for: minted.recipient())
        #expect(result.message.gatewayMerchantId == "merchant-123")
        #expect(result.message.paymentMethodDetails.authMethod == .panOnly)
        #expect(result.messageId.hasPrefix("PY-"))
        #expect(result.keyIndex == 0)
    }

    @Test("an ECv2 CRYPTOGRAM_3DS token carries its device PAN, cryptogram and ECI")
    func cryptogram() throws {
        let result = try minted.decryptor().decrypt(minted.token("ecv2-cryptogram-3ds"), for: minted.recipient())
        let details = result.message.paymentMethodDetails
        #expect(details.authMethod == .cryptogram3DS)
        #expect(details.pan == "4895370012003478")
        #expect(details.expirationMonth == 3 && details.expirationYear == 2030)
        #expect(details.cryptogram == "AgAAAAAABk4DWZ4C28yUQAAAAAA=")
        #expect(details.eciIndicator == "05")
        // Logging the message shows neither the PAN nor the cryptogram.
        #expect(!"\(result.message)".contains("4895370012003478"))
        #expect(!"\(result.message)".contains("AgAAAAAABk4DWZ4C28yUQAAAAAA="))
    }

    @Test("key rotation: with two merchant keys, a token for the second decrypts, and only with it")
    func keyRotation() throws {
        let token = try minted.token("ecv2-second-key")
        let result = try minted.decryptor().decrypt(token, for: minted.recipient(keys: [0, 1]))
        #expect(result.keyIndex == 1)
        #expect(result.message.paymentMethodDetails.pan == "5555555555554444")
        #expect(try minted.decryptor().decrypt(token, for: minted.recipient(keys: [1])).keyIndex == 0)
        #expect(refusalCode { try minted.decryptor().decrypt(token, for: minted.recipient(keys: [0])) } == .tagMismatch)
        #expect(refusalCode { try minted.decryptor().decrypt(token, for: minted.recipient(keys: [])) } == .invalidKeyMaterial)
    }

    @Test("ECv1 (root-signed, 128-bit keys) and ECv2SigningOnly (signed plaintext) read as Google specifies")
    func otherVersions() throws {
        let ecv1 = try minted.decryptor().decrypt(minted.token("ecv1-pan-only"), for: minted.recipient())
        #expect(ecv1.protocolVersion == .ecV1)
        #expect(ecv1.message.paymentMethodDetails.pan == "378282246310005")
        #expect(ecv1.intermediateKeyExpiration == nil)

        let signingOnly = try minted.decryptor().decrypt(minted.token("ecv2-signing-only"), for: minted.recipient(keys: []))
        #expect(signingOnly.protocolVersion == .ecV2SigningOnly)
        #expect(signingOnly.keyIndex == nil)
        #expect(signingOnly.message.paymentMethodDetails.pan == "6011111111111117")
        let unsealed = try minted.decryptor().unseal(minted.token("ecv2-signing-only"), for: minted.recipient())
        #expect(try JSONValue(parsing: unsealed.plaintext) == minted.expected("ecv2-signing-only"))
    }

    @Test("each way a minted token can be wrong for this gateway gets its own error")
    func distinctRefusals() throws {
        let token = try minted.token("ecv2-pan-only")
        let recipient = try minted.recipient()
        // Wrong recipient.
        var other = recipient
        other.recipientId = "gateway:someone-else"
        #expect(refusalCode { try minted.decryptor().decrypt(token, for: other) } == .messageSignatureInvalid)
        // Wrong root: Google's own test root did not sign this intermediate key.
        let google = GooglePayTokenDecryptor(rootKeys: .googleTest)
        #expect(refusalCode { try google.decrypt(token, for: recipient) } == .untrustedIntermediateKey)
        // Expired intermediate key (a week), expired message (a day), expired root (a year).
        let week = Date().addingTimeInterval(8 * 24 * 3600)
        #expect(refusalCode { try minted.decryptor(at: week).decrypt(token, for: recipient) } == .intermediateKeyExpired)
        let twoDays = Date().addingTimeInterval(2 * 24 * 3600)
        #expect(refusalCode { try minted.decryptor(at: twoDays).decrypt(token, for: recipient) } == .messageExpired)
        let twoYears = Date().addingTimeInterval(730 * 24 * 3600)
        #expect(refusalCode { try minted.decryptor(at: twoYears).decrypt(token, for: recipient) } == .noUsableRootKey)
        // Tag mismatch: encrypted for a key this recipient does not have.
        #expect(refusalCode { try minted.decryptor().decrypt(token, for: minted.recipient(keys: [1])) } == .tagMismatch)
    }
}
