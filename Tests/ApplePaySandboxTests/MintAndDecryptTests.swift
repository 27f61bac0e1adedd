import ApplePaySandbox
import ApplePayToken
import Foundation
import Testing

@Suite("Minted tokens decrypt with the token library")
struct MintAndDecryptTests {
    @Test(
        "3-D Secure payment data round-trips",
        arguments: [MintRequest.Version.ecV1, .rsaV1],
        [MintRequest.Signer.ecLeaf, .rsaLeaf]
    )
    func threeDSecure(version: MintRequest.Version, signer: MintRequest.Signer) async throws {
        var request = MintRequest()
        request.version = version
        request.signer = signer
        request.applicationPrimaryAccountNumber = "4761120010000492"
        request.applicationExpirationDate = "291130"
        request.currencyCode = "978"
        request.transactionAmount = 123_456
        request.cardholderName = "Jane Appleseed"
        request.details = .threeDSecure(onlinePaymentCryptogram: "AOm+7lPDSbobAGVT7hmNAoABFA==", eciIndicator: "5")
        request.transactionId = Array(0..<32)

        let merchant = SandboxFixtures.merchant(for: version)
        let text = try SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: merchant.certificate))
        let token = try PaymentToken(parsing: text)
        #expect(token.version == (version == .ecV1 ? .ecV1 : .rsaV1))
        switch (version, token.header.keyExchange) {
        case (.ecV1, .ephemeralPublicKey(let key)): #expect(key.count == 91)  // P-256 SubjectPublicKeyInfo DER
        case (.rsaV1, .wrappedKey(let key)): #expect(key.count == 256)  // RSA-2048 ciphertext
        default: Issue.record("the header has the wrong key exchange field for \(version)")
        }

        let result = try await SandboxFixtures.decryptor().decrypt(token, using: SandboxFixtures.keyRing())
        let payment = result.paymentData
        #expect(payment.applicationPrimaryAccountNumber == "4761120010000492")
        #expect(payment.applicationExpirationDate == "291130")
        #expect(payment.currencyCode == "978")
        #expect(payment.transactionAmount == 123_456)
        #expect(payment.cardholderName == "Jane Appleseed")
        #expect(payment.deviceManufacturerIdentifier == "040010030273")
        #expect(payment.paymentDataType == .threeDSecure)
        #expect(payment.onlinePaymentCryptogram == "AOm+7lPDSbobAGVT7hmNAoABFA==")
        #expect(payment.eciIndicator == "5")
        #expect(payment.additionalFields.isEmpty)
        #expect(result.transactionId == SandboxFixtures.hex(Array(0..<32)))
        #expect(result.applicationData == nil)
        #expect(result.publicKeyHash == (try SandboxFixtures.identity(merchant).publicKeyHash))
        #expect(abs(result.signingTime.timeIntervalSince(request.signingTime)) < 1)
    }

    @Test("EMV payment data round-trips", arguments: [MintRequest.Version.ecV1, .rsaV1])
    func emv(version: MintRequest.Version) async throws {
        var request = MintRequest()
        request.version = version
        request.signer = version == .ecV1 ? .ecLeaf : .rsaLeaf
        let pin: String? = version == .rsaV1 ? "0123456789abcdef" : nil
        request.details = .emv(emvData: "nwIGAAAAAAAAnwMGAAAAAAAA", encryptedPINData: pin)

        let token = try PaymentToken(
            parsing: SandboxFixtures.minter.mint(
                request,
                for: MintRecipient(certificate: SandboxFixtures.merchant(for: version).certificate)
            )
        )
        let payment = try await SandboxFixtures.decryptor().decrypt(token, using: SandboxFixtures.keyRing()).paymentData
        #expect(payment.paymentDataType == .emv)
        guard case .emv(let emv) = payment.details else {
            Issue.record("expected EMV details, got \(payment.paymentDataType.rawValue)")
            return
        }
        #expect(emv.emvData == "nwIGAAAAAAAAnwMGAAAAAAAA")
        #expect(emv.encryptedPINData == pin)
        #expect(payment.onlinePaymentCryptogram == nil)
        #expect(payment.cardholderName == nil)
    }

    @Test("applicationData is hashed into the header and the signed content", arguments: [MintRequest.Version.ecV1, .rsaV1])
    func applicationData(version: MintRequest.Version) async throws {
        let raw = Array("{\"orderId\":\"A-1001\"}".utf8)
        var request = MintRequest()
        request.version = version
        request.applicationData = raw
        let text = try SandboxFixtures.minter.mint(
            request,
            for: MintRecipient(certificate: SandboxFixtures.merchant(for: version).certificate)
        )
        #expect(text.contains("\"applicationData\":\"\(SandboxFixtures.hex(SandboxFixtures.sha256(raw)))\""))

        let token = try PaymentToken(parsing: text)
        let result = try await SandboxFixtures.decryptor().decrypt(token, using: SandboxFixtures.keyRing())
        #expect(result.applicationData == SandboxFixtures.sha256(raw))

        // Dropping it from the header breaks the signed messageDigest: it was part of the signed content.
        var stripped = token
        stripped.header.applicationData = nil
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await SandboxFixtures.decryptor().verifySignature(of: stripped)
        }
        #expect(error?.code == .messageDigestMismatch)
    }

    @Test("a recipient from the certificate and one from the token library identity are the same", arguments: [MintRequest.Version.ecV1, .rsaV1])
    func recipientsAgree(version: MintRequest.Version) async throws {
        let merchant = SandboxFixtures.merchant(for: version)
        let identity = try SandboxFixtures.identity(merchant)
        let fromCertificate = try MintRecipient(certificate: merchant.certificate)
        let fromIdentity = MintRecipient(identity: identity)
        #expect(fromCertificate.publicKeyHash == identity.publicKeyHash)
        #expect(fromIdentity.publicKeyHash == identity.publicKeyHash)
        #expect(fromCertificate.merchantIdentifierHash == SandboxFixtures.sha256(Array(SandboxFixtures.merchantIdentifier.utf8)))
        #expect(fromIdentity.merchantIdentifierHash == fromCertificate.merchantIdentifierHash)

        // A key configured by merchant identifier string alone decrypts tokens minted for it.
        var request = MintRequest()
        request.version = version
        let token = try PaymentToken(parsing: SandboxFixtures.minter.mint(request, for: fromIdentity))
        let byIdentifier = MerchantIdentity(
            merchantIdentifier: SandboxFixtures.merchantIdentifier,
            privateKey: try KeyMaterial.privateKey(from: Array(merchant.privateKeyPEM.utf8))
        )
        let result = try await SandboxFixtures.decryptor().decrypt(token, using: MerchantKeyRing([byIdentifier]))
        #expect(result.paymentData.transactionAmount == 5656)
    }

    @Test("the defaults mint a valid EC_v1 3-D Secure token with a fresh cryptogram and transaction id")
    func defaults() async throws {
        let recipient = try MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate)
        let first = try PaymentToken(parsing: SandboxFixtures.minter.mint(MintRequest(), for: recipient))
        let second = try PaymentToken(parsing: SandboxFixtures.minter.mint(MintRequest(), for: recipient))
        #expect(first.header.transactionIdBytes.count == 32)
        #expect(first.header.transactionId != second.header.transactionId)
        #expect(first.header.keyExchange != second.header.keyExchange)

        let decryptor = SandboxFixtures.decryptor()
        let payment = try await decryptor.decrypt(first, using: SandboxFixtures.keyRing()).paymentData
        let other = try await decryptor.decrypt(second, using: SandboxFixtures.keyRing()).paymentData
        #expect(payment.applicationPrimaryAccountNumber == "5204245250001488")
        #expect(payment.applicationExpirationDate == "301231")
        #expect(payment.currencyCode == "840")
        #expect(payment.transactionAmount == 5656)
        #expect(payment.eciIndicator == "7")
        #expect(payment.onlinePaymentCryptogram.flatMap { Data(base64Encoded: $0) }?.count == 20)
        #expect(payment.onlinePaymentCryptogram != other.onlinePaymentCryptogram)
    }

    @Test("text that needs JSON escaping survives encryption")
    func escaping() async throws {
        var request = MintRequest()
        request.cardholderName = "Zoë \"Q\" O'Brien\\/ 𝒜"
        let token = try PaymentToken(
            parsing: SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        )
        let payment = try await SandboxFixtures.decryptor().decrypt(token, using: SandboxFixtures.keyRing()).paymentData
        #expect(payment.cardholderName == "Zoë \"Q\" O'Brien\\/ 𝒜")
    }

    @Test("a request a token could not carry is refused: wrong key kind for the version, empty transactionId")
    func impossibleRequests() throws {
        var request = MintRequest()
        request.version = .rsaV1
        #expect(throws: SandboxError.self) {
            try SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        }
        request.version = .ecV1
        #expect(throws: SandboxError.self) {
            try SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.rsaMerchant.certificate))
        }
        request.transactionId = []
        #expect(throws: SandboxError.self) {
            try SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        }
    }
}
