import Crypto
import Foundation
import GooglePaySandbox
import Testing

@testable import GooglePayToken

/// The sandbox minter's tokens decrypt with the library, and only against the sandbox root.
@Suite("Sandbox minter")
struct SandboxMinterTests {
    let root = GooglePaySandboxRoot()
    let merchantKey = P256.KeyAgreement.PrivateKey()
    let recipientId = "gateway:sandbox"

    var recipient: GooglePayRecipient { GooglePayRecipient(recipientId: recipientId, privateKeys: [merchantKey]) }

    @Test("a minted CRYPTOGRAM_3DS token decrypts to the request's card, for the recipient it names")
    func mintedCryptogram() throws {
        var request = GooglePayMintRequest()
        request.authMethod = .cryptogram3DS
        request.pan = "5204740000001002"
        request.expirationMonth = 7
        request.expirationYear = 2029
        request.cryptogram = "AJkBBkhgQQAAAE4gSEJydQAAAAA="
        request.eciIndicator = "02"
        request.gatewayMerchantId = "TESTMERCHANT"
        request.messageId = "SANDBOX-1"
        let minter = GooglePayTokenMinter(root: root)
        let text = try minter.mint(request, recipientId: recipientId, recipientPublicKey: merchantKey.publicKey)

        let result = try GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys).decrypt(GooglePaymentMethodToken(parsing: text), for: recipient)
        #expect(result.messageId == "SANDBOX-1")
        #expect(result.message.gatewayMerchantId == "TESTMERCHANT")
        let details = result.message.paymentMethodDetails
        #expect(details.authMethod == .cryptogram3DS && details.pan == "5204740000001002")
        #expect(details.expirationMonth == 7 && details.expirationYear == 2029)
        #expect(details.cryptogram == "AJkBBkhgQQAAAE4gSEJydQAAAAA=" && details.eciIndicator == "02")
        #expect(abs(result.intermediateKeyExpiration!.timeIntervalSince(minter.intermediateKeyExpiration)) < 0.001)

        // The root as keys.json says it is the same root.
        let fromDocument = try GoogleRootSigningKeys(keysJSON: root.keysJSON)
        #expect(
            try GooglePayTokenDecryptor(rootKeys: fromDocument).decrypt(GooglePaymentMethodToken(parsing: text), for: recipient).messageId
                == "SANDBOX-1"
        )
        // Google's roots do not trust the sandbox.
        #expect(
            refusalCode { try GooglePayTokenDecryptor(rootKeys: .googleTest).decrypt(GooglePaymentMethodToken(parsing: text), for: self.recipient) }
                == .untrustedIntermediateKey
        )
    }

    @Test("each message default and each refusal the sandbox can provoke is distinct")
    func expirations() throws {
        var request = GooglePayMintRequest()
        request.messageExpiration = Date().addingTimeInterval(-1)
        let expiredMessage = try GooglePayTokenMinter(root: root).mint(request, recipientId: recipientId, recipientPublicKey: merchantKey.publicKey)
        let expiredKey = try GooglePayTokenMinter(root: root, intermediateKeyExpiration: Date().addingTimeInterval(-1))
            .mint(GooglePayMintRequest(), recipientId: recipientId, recipientPublicKey: merchantKey.publicKey)
        let decryptor = GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys)
        #expect(refusalCode { try decryptor.decrypt(GooglePaymentMethodToken(parsing: expiredMessage), for: self.recipient) } == .messageExpired)
        #expect(refusalCode { try decryptor.decrypt(GooglePaymentMethodToken(parsing: expiredKey), for: self.recipient) } == .intermediateKeyExpired)
        let expiredRoot = GooglePaySandboxRoot(signingKey: root.signingKey, keyExpiration: Date().addingTimeInterval(-1))
        #expect(
            refusalCode {
                try GooglePayTokenDecryptor(rootKeys: expiredRoot.rootSigningKeys).decrypt(
                    GooglePaymentMethodToken(parsing: expiredKey),
                    for: self.recipient
                )
            } == .noUsableRootKey
        )
    }
}
