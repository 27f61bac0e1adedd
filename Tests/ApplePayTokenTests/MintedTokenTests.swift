import Crypto
import Foundation
import Testing

@testable import ApplePayToken

/// Tokens minted by an independent implementation (Python `cryptography`) for what no public
/// vector covers.
@Suite("Minted tokens")
struct MintedTokenTests {
    let minted: MintedTokens

    init() async throws {
        minted = try await MintedTokens.shared()
    }

    @Test("applicationData is part of the signed content and comes back with the result")
    func applicationData() async throws {
        let token = try minted.token("ec-application-data")
        let result = try await minted.decryptor().decrypt(token, using: minted.keyRing())
        let applicationData = try minted.fact("ec-application-data", "applicationData")
        #expect(result.applicationData == Array(SHA256.hash(data: Data(applicationData.utf8))))
        #expect(result.paymentData.jsonValue(unmasked: true) == (try minted.expected("ec-application-data")))

        // Without applicationData the signed digest no longer matches.
        var stripped = token
        stripped.header.applicationData = nil
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await minted.decryptor().verifySignature(of: stripped)
        }
        #expect(error?.code == .messageDigestMismatch)
    }

    @Test("every documented key is typed and unknown keys are kept")
    func richPaymentData() async throws {
        let result = try await minted.decryptor().decrypt(minted.token("ec-application-data"), using: minted.keyRing())
        let payment = result.paymentData
        #expect(payment.cardholderName == "Jane Appleseed")
        #expect(payment.eciIndicator == "7")
        #expect(payment.onlinePaymentCryptogram == "AOm+7lPDSbobAGVT7hmNAoABFA==")
        #expect(payment.authenticationResponses?.first?.merchantIdentifier == "merchant.sub.one")
        #expect(payment.authenticationResponses?.first?.transactionAmount == "1000")
        #expect(payment.merchantTokenIdentifier == "DNITHE302308980427388297")
        #expect(payment.merchantTokenMetadata?["lastFour"] == .string("1111"))
        #expect(payment.additionalFields["futureField"] == .object(["kept": .bool(true)]))
    }

    @Test("a shared secret with a leading zero byte keeps all 32 bytes")
    func leadingZeroSharedSecret() async throws {
        let token = try minted.token("ec-leading-zero-secret")
        let secretHex = try minted.fact("ec-leading-zero-secret", "sharedSecretHex")
        #expect(secretHex.hasPrefix("00"))

        let key = try KeyMaterial.privateKey(from: minted.bytes("merchant-ec-key-pkcs8.pem"))
        guard case .ec(let privateKey) = key, case .ephemeralPublicKey(let ephemeral) = token.header.keyExchange else {
            Issue.record("expected an EC key and an EC_v1 token")
            return
        }
        let shared = try privateKey.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(derRepresentation: ephemeral))
        #expect(shared.withUnsafeBytes { Hex.encode(Array($0)) } == secretHex)

        let result = try await minted.decryptor().decrypt(token, using: minted.keyRing())
        #expect(result.paymentData.jsonValue(unmasked: true) == (try minted.expected("ec-leading-zero-secret")))
    }

    @Test("RSA_v1 with an RSA leaf and EMV payment data")
    func rsaLeafAndEMV() async throws {
        let token = try minted.token("rsa-rsa-leaf-emv")
        #expect(token.version == .rsaV1)
        let result = try await minted.decryptor().decrypt(token, using: minted.keyRing())
        #expect(result.paymentData.jsonValue(unmasked: true) == (try minted.expected("rsa-rsa-leaf-emv")))
        guard case .emv(let emv) = result.paymentData.details else {
            Issue.record("expected EMV details")
            return
        }
        #expect(emv.encryptedPINData?.count == 16)
        #expect(result.paymentData.onlinePaymentCryptogram == nil)
    }

    @Test("a key configured by merchant identifier string decrypts like one with its certificate")
    func merchantIdentifierIdentity() async throws {
        let key = try KeyMaterial.privateKey(from: minted.bytes("merchant-ec-key-openssl-export.pem"))
        let ring = MerchantKeyRing([MerchantIdentity(merchantIdentifier: minted.merchantIdentifier, privateKey: key)])
        let result = try await minted.decryptor().decrypt(minted.token("ec-leading-zero-secret"), using: ring)
        #expect(result.paymentData.transactionAmount == 5656)

        let wrongId = MerchantKeyRing([MerchantIdentity(merchantIdentifier: "merchant.someone.else", privateKey: key)])
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await minted.decryptor().decrypt(minted.token("ec-leading-zero-secret"), using: wrongId)
        }
        #expect(error?.code == .decryptionFailed)
    }

    @Test(
        "each negative case of step 1 gets its own error",
        arguments: [
            ("neg-no-leaf-marker", ApplePayTokenError.Code.missingLeafMarker),
            ("neg-no-intermediate-marker", .missingIntermediateMarker),
            ("neg-foreign-root", .untrustedChain),
            ("neg-unknown-public-key-hash", .noMatchingKey),
        ]
    )
    func negativeCases(name: String, code: ApplePayTokenError.Code) async throws {
        // Trust the unmarked chains' own roots, so the missing marker is the only defect.
        let roots = minted.tokens[name]?["root"].map { [$0] } ?? []
        let decryptor = try minted.decryptor(extraRoots: roots)
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await decryptor.decrypt(minted.token(name), using: minted.keyRing())
        }
        #expect(error?.code == code)
    }

    @Test("signing time 20 minutes off either way is rejected; 4 minutes is accepted", arguments: [-1200.0, 1200.0])
    func signingTimeWindow(offset: TimeInterval) async throws {
        let token = try minted.token("ec-leading-zero-secret")
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await minted.decryptor(offset: offset).verifySignature(of: token)
        }
        #expect(error?.code == .signingTimeOutsideWindow)
        // Both times are named in ISO 8601, UTC, to the second.
        let times = error?.reason.matches(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/).count
        #expect(times == 2, "\(error?.reason ?? "")")
        _ = try await minted.decryptor(offset: offset / 5).verifySignature(of: token)
    }

    @Test("the token also parses from base64 of its JSON")
    func base64Token() async throws {
        let text = try minted.tokenText("rsa-rsa-leaf-emv")
        let token = try PaymentToken(parsing: Data(text.utf8).base64EncodedString())
        #expect(token == (try minted.token("rsa-rsa-leaf-emv")))
    }

    @Test("a warm token reuses the verified chain")
    func chainCacheIsUsed() async throws {
        let decryptor = try minted.decryptor()
        let ring = try minted.keyRing()
        _ = try await decryptor.decrypt(minted.token("ec-application-data"), using: ring)
        _ = try await decryptor.decrypt(minted.token("ec-leading-zero-secret"), using: ring)
        _ = try await decryptor.decrypt(minted.token("rsa-rsa-leaf-emv"), using: ring)
        let statistics = decryptor.chainCacheStatistics
        #expect(statistics.misses == 2)  // the EC leaf chain once, the RSA leaf chain once
        #expect(statistics.hits == 1)
        #expect(statistics.entries == 2)
    }

    @Test("a cached chain does not excuse a bad signature or an untrusted root")
    func cacheDoesNotWeakenChecks() async throws {
        let decryptor = try minted.decryptor()
        var token = try minted.token("ec-application-data")
        _ = try await decryptor.verifySignature(of: token)
        let value = try CMSSignedData(berEncoded: token.signature).signer.signature
        token.signature[value.endIndex - 3] ^= 0x40
        let error = await #expect(throws: ApplePayTokenError.self) { try await decryptor.verifySignature(of: token) }
        #expect(error?.code == .signatureInvalid)

        // Another decryptor with other roots has its own cache.
        let appleOnly = ApplePayTokenDecryptor(trustRoots: .apple)
        let untrusted = await #expect(throws: ApplePayTokenError.self) {
            try await appleOnly.verifySignature(of: minted.token("ec-application-data"))
        }
        #expect(untrusted?.code == .untrustedChain)
    }

    @Test("many concurrent decryptions share one decryptor safely")
    func concurrentDecryption() async throws {
        let decryptor = try minted.decryptor()
        let ring = try minted.keyRing()
        let tokens = try ["ec-application-data", "ec-leading-zero-secret", "rsa-rsa-leaf-emv"].map(minted.token)
        let amounts = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<48 {
                group.addTask { try await decryptor.decrypt(tokens[index % 3], using: ring).paymentData.transactionAmount }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(amounts.count == 48)
        #expect(Set(amounts) == [5656, 1999])
    }

    @Test("no error text carries the PAN, the cryptogram or key material")
    func errorsCarryNoSecrets() async throws {
        let pem = try Fixtures.text(minted.url("merchant-ec-key-pkcs8.pem"))
        let keyBody = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "unreachable"
        var texts: [String] = []
        for name in ["neg-no-leaf-marker", "neg-no-intermediate-marker", "neg-foreign-root", "neg-unknown-public-key-hash"] {
            do {
                _ = try await minted.decryptor().decrypt(minted.token(name), using: minted.keyRing())
            } catch {
                texts.append("\(error)")
            }
        }
        var tampered = try minted.token("ec-application-data")
        tampered.header.keyExchange = .ephemeralPublicKey([0x30, 0x00])
        do { _ = try SymmetricKeyRestorer.restore(tampered, with: minted.keyRing().identities[0]) } catch { texts.append("\(error)") }
        let payment = try PaymentData(jsonBytes: Array(try Fixtures.text(minted.url("ec-application-data.expected.json")).utf8))
        texts.append(payment.description)
        #expect(texts.count == 6)
        for text in texts {
            #expect(!text.contains("4111111111111111"))
            #expect(!text.contains("AOm+7lPDSbobAGVT7hmNAoABFA=="))
            #expect(!text.contains(keyBody))
        }
    }
}
