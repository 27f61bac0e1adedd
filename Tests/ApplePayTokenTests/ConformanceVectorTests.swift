import Crypto
import Foundation
import Testing

@testable import ApplePayToken

/// Real Apple-signed tokens from `Tests/ApplePayTokenTests/Fixtures/conformance`: every one must verify at its signing
/// time against Apple Root CA - G3 alone, and decrypt to its expected plaintext where the key is public.
@Suite("Conformance vectors")
struct ConformanceVectorTests {
    @Test("the conformance set is present and complete, inside the repository")
    func vectorsArePresent() {
        // A plain clone must pass: the vectors are fixtures here, not a directory beside the clone.
        if ProcessInfo.processInfo.environment["APPLEPAY_CONFORMANCE_DIR"] == nil {
            #expect(Fixtures.conformanceDirectory.standardizedFileURL.path.hasPrefix(Fixtures.packageRoot.standardizedFileURL.path + "/"))
        }
        for vector in ConformanceVector.all {
            #expect(FileManager.default.fileExists(atPath: vector.directory.appendingPathComponent("SOURCE.txt").path), "\(vector.name)")
            #expect(FileManager.default.fileExists(atPath: vector.directory.appendingPathComponent("LICENCE.txt").path), "\(vector.name)")
        }
        #expect(ConformanceVector.all.count == 13, "expected 13 vectors under \(Fixtures.conformanceDirectory.path)")
        #expect(ConformanceVector.tokens.count == 12)
        #expect(ConformanceVector.withPrivateKey.count == 7)
        #expect(ConformanceVector.withSymmetricKey.count == 2)
    }

    @Test("signature verifies at the signing time with Apple's root only", arguments: ConformanceVector.tokens)
    func signatureVerifies(vector: ConformanceVector) async throws {
        let verified = try await vector.decryptorAtSigningTime().verifySignature(of: vector.token())
        #expect(verified.signingTime == vector.signingTime)
    }

    @Test("decrypts to the expected payment data", arguments: ConformanceVector.withPrivateKey)
    func decrypts(vector: ConformanceVector) async throws {
        let result = try await vector.decryptorAtSigningTime().decrypt(vector.token(), using: vector.keyRing())
        #expect(result.paymentData.jsonValue(unmasked: true) == (try vector.expectedJSON()))
        #expect(result.version.rawValue == vector.version)
    }

    @Test("the published symmetric key opens the data", arguments: ConformanceVector.withSymmetricKey)
    func symmetricKeyOpensData(vector: ConformanceVector) async throws {
        let token = try vector.token()
        _ = try await vector.decryptorAtSigningTime().verifySignature(of: token)
        guard let keyFile = try Fixtures.json(vector.file("symmetricKey")) as? [String: Any],
            let keyHex = keyFile["symmetric_key_hex"] as? String, let key = Hex.decode(keyHex)
        else { throw FixtureError(description: "\(vector.name) has no symmetric_key_hex") }
        let plaintext = try PaymentDataCipher.open(token.data, using: SymmetricKey(data: key))
        let payment = try PaymentData(jsonBytes: plaintext)
        #expect(payment.jsonValue(unmasked: true) == (try vector.expectedJSON()))
    }

    @Test("the KDF reproduces each vector's symmetric key", arguments: ConformanceVector.withKDFIntermediates)
    func kdfMatchesIntermediates(vector: ConformanceVector) throws {
        let secret = try #require(vector.sharedSecretBase64.flatMap(Base64.decode))
        let partyV = try #require(vector.merchantIdHash.flatMap(Hex.decode))
        let key = AppleKDF.symmetricKey(sharedSecret: secret, merchantIdentifierHash: partyV)
        #expect(key.withUnsafeBytes { Base64.encode($0) } == vector.symmetricKeyBase64)
    }

    @Test("rejected at today's date: the signing time is outside the window", arguments: ConformanceVector.tokens)
    func rejectedToday(vector: ConformanceVector) async throws {
        let decryptor = ApplePayTokenDecryptor(trustRoots: .apple)
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await decryptor.verifySignature(of: vector.token())
        }
        #expect(error?.code == .signingTimeOutsideWindow)
    }

    @Test("the expired leaf is rejected when the chain is validated today", arguments: ConformanceVector.tokens)
    func expiredLeafRejected(vector: ConformanceVector) async throws {
        let token = try vector.token()
        let signedData = try CMSSignedData(berEncoded: token.signature)
        let evaluator = ChainEvaluator(trustRoots: .apple)
        let expiredLeaf = vector.name != "unattributed-evervault-prod-2025-sigonly"
        // The chain itself is fine at the signing time...
        _ = try await evaluator.evaluate(signedData, at: #require(vector.signingTime))
        // ...and every leaf but the 2025 one has expired since.
        if expiredLeaf {
            let error = await #expect(throws: ApplePayTokenError.self) {
                try await evaluator.evaluate(signedData, at: Date())
            }
            #expect(error?.code == .untrustedChain)
        }
    }

    @Test("a flipped byte in data is a message digest mismatch", arguments: ConformanceVector.tokens)
    func flippedDataByte(vector: ConformanceVector) async throws {
        var token = try vector.token()
        token.data[token.data.count / 2] ^= 0x01
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await vector.decryptorAtSigningTime().verifySignature(of: token)
        }
        #expect(error?.code == .messageDigestMismatch)
    }

    @Test("a flipped byte in the signature value fails the signature", arguments: ConformanceVector.tokens)
    func flippedSignatureByte(vector: ConformanceVector) async throws {
        var token = try vector.token()
        let signatureValue = try CMSSignedData(berEncoded: token.signature).signer.signature
        token.signature[signatureValue.endIndex - 5] ^= 0x01
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await vector.decryptorAtSigningTime().verifySignature(of: token)
        }
        #expect(error?.code == .signatureInvalid)
    }

    @Test("a foreign root alone does not trust Apple's chain")
    func untrustedWithoutAppleRoot() async throws {
        let minted = try await MintedTokens.shared()
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let signingTime = try #require(vector.signingTime)
        let decryptor = ApplePayTokenDecryptor(
            trustRoots: TrustRoots([try minted.certificate("root.pem")]),
            clock: { signingTime }
        )
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await decryptor.verifySignature(of: vector.token())
        }
        #expect(error?.code == .untrustedChain)
    }

    @Test("key rotation: the key matching publicKeyHash is picked from several")
    func rotatedKeyIsSelected() async throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2023-rotated" })
        let stale = try MerchantIdentity(
            certificate: KeyMaterial.certificate(from: Fixtures.bytes(vector.file("nonMatchingCertificate"))),
            privateKey: KeyMaterial.privateKey(from: Fixtures.bytes(vector.file("nonMatchingPrivateKey")))
        )
        let current = try vector.keyRing().identities

        let both = MerchantKeyRing([stale] + current)
        let result = try await vector.decryptorAtSigningTime().decrypt(vector.token(), using: both)
        #expect(result.paymentData.jsonValue(unmasked: true) == (try vector.expectedJSON()))
        #expect(result.publicKeyHash == current[0].publicKeyHash)

        let error = await #expect(throws: ApplePayTokenError.self) {
            try await vector.decryptorAtSigningTime().decrypt(vector.token(), using: MerchantKeyRing([stale]))
        }
        #expect(error?.code == .noMatchingKey)
        #expect(error?.field == "header.publicKeyHash")
    }

    @Test("the KDF and AES-GCM component vector")
    func componentVector() throws {
        let vector = try #require(ConformanceVector.all.first { $0.kind == "component" })
        guard let fields = try Fixtures.json(vector.file("vector")) as? [String: Any],
            let secret = (fields["shared_secret_hex"] as? String).flatMap(Hex.decode),
            let breakdown = fields["kdf_other_info_breakdown"] as? [String: Any],
            let partyV = (breakdown["party_v_hex"] as? String).flatMap(Hex.decode),
            let expectedKey = fields["symmetric_key_b64"] as? String,
            let ciphertext = (fields["ciphertext_with_tag_b64"] as? String).flatMap(Base64.decode),
            let plaintext = fields["plaintext"] as? String
        else { throw FixtureError(description: "component_vector.json lacks a field") }

        let key = AppleKDF.symmetricKey(sharedSecret: secret, merchantIdentifierHash: partyV)
        #expect(key.withUnsafeBytes { Base64.encode($0) } == expectedKey)
        #expect(try PaymentDataCipher.open(ciphertext, using: key) == Array(plaintext.utf8))
    }

    @Test("the radial vector's unpadded base64 signature is read leniently")
    func unpaddedSignature() async throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "radial-seed-2015-sigonly" })
        #expect(try Fixtures.text(vector.file("token")).contains("signature"))
        _ = try await vector.decryptorAtSigningTime().verifySignature(of: vector.token())
    }

    @Test("a Keychain PKCS#12 bundle (legacy RC2) opens with its password and decrypts")
    func pkcs12Bundle() async throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "vgs-starlarky-2023" })
        let bundleBytes = try Fixtures.bytes(vector.file("pkcs12"))
        let password = try Fixtures.text(vector.file("pkcs12Password")).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(KeyMaterial.isPKCS12(bundleBytes))

        let bundle = try KeyMaterial.pkcs12(bundleBytes, password: password)
        let certificate = try #require(bundle.certificate)
        let identity = try MerchantIdentity(certificate: certificate, privateKey: bundle.privateKey)
        let result = try await vector.decryptorAtSigningTime().decrypt(vector.token(), using: MerchantKeyRing([identity]))
        #expect(result.paymentData.jsonValue(unmasked: true) == (try vector.expectedJSON()))

        let wrongPassword = #expect(throws: ApplePayTokenError.self) {
            try KeyMaterial.pkcs12(bundleBytes, password: password + "x")
        }
        #expect(wrongPassword?.code == .invalidKeyMaterial)
        #expect(wrongPassword?.reason.contains("password") == true)

        // Without a password, the plain loader says what the file is and what to do.
        let noPassword = #expect(throws: ApplePayTokenError.self) { try KeyMaterial.privateKey(from: bundleBytes) }
        #expect(noPassword?.reason.contains("PKCS#12") == true)
        #expect(noPassword?.reason.contains("openssl pkcs12") == true)
    }

    @Test("the OpenSSL RSA unwrap and swift-crypto's agree on the real RSA_v1 token")
    func rsaUnwrapPathsAgree() throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "basistheory-rsa" })
        let identity = try #require(vector.keyRing().identities.first)
        guard case .wrappedKey(let wrapped) = try vector.token().header.keyExchange, case .rsa(let key) = identity.privateKey
        else {
            Issue.record("expected an RSA_v1 token and an RSA key")
            return
        }
        let openSSL = try #require(SymmetricKeyRestorer.unwrap(wrapped, with: identity.openSSLRSAKey, or: key))
        let swiftCrypto = try #require(SymmetricKeyRestorer.unwrap(wrapped, with: nil, or: key))
        #expect(openSSL == swiftCrypto)
        #expect(Base64.encode(openSSL) == vector.symmetricKeyBase64)
        var tampered = wrapped
        tampered[0] ^= 1
        #expect(SymmetricKeyRestorer.unwrap(tampered, with: identity.openSSLRSAKey, or: key) == nil)
    }
}
