import ApplePaySandbox
import ApplePayToken
import Foundation
import Testing

@Suite("Minted tokens are rejected where real ones would be")
struct SignatureRejectionTests {
    private func mint(signer: MintRequest.Signer, signedAgo seconds: TimeInterval = 0) throws -> PaymentToken {
        var request = MintRequest()
        request.signer = signer
        request.signingTime = Date().addingTimeInterval(-seconds)
        return try PaymentToken(
            parsing: SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        )
    }

    @Test("a token signed 10 minutes ago is outside the default 5-minute window", arguments: [MintRequest.Signer.ecLeaf, .rsaLeaf])
    func staleSigningTime(signer: MintRequest.Signer) async throws {
        let token = try mint(signer: signer, signedAgo: 600)
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await SandboxFixtures.decryptor().decrypt(token, using: SandboxFixtures.keyRing())
        }
        #expect(error?.code == .signingTimeOutsideWindow)
    }

    @Test("a token signed 4 minutes ago is still inside the window", arguments: [MintRequest.Signer.ecLeaf, .rsaLeaf])
    func recentSigningTime(signer: MintRequest.Signer) async throws {
        let token = try mint(signer: signer, signedAgo: 240)
        let signature = try await SandboxFixtures.decryptor().verifySignature(of: token)
        #expect(abs(signature.signingTime.timeIntervalSinceNow + 240) < 5)
    }

    @Test("a decryptor trusting only Apple rejects every minted token", arguments: [MintRequest.Signer.ecLeaf, .rsaLeaf])
    func appleOnly(signer: MintRequest.Signer) async throws {
        let token = try mint(signer: signer)
        let decryptor = ApplePayTokenDecryptor(trustRoots: .apple)
        #expect(decryptor.trustRoots.isAppleOnly)
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await decryptor.decrypt(token, using: SandboxFixtures.keyRing())
        }
        #expect(error?.code == .untrustedChain)
    }

    @Test("another sandbox authority's root does not vouch for this one's tokens")
    func otherAuthority() async throws {
        let other = try SandboxAuthority.generate()
        let token = try mint(signer: .ecLeaf)
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await SandboxFixtures.decryptor(trusting: other.trustRoots).verifySignature(of: token)
        }
        #expect(error?.code == .untrustedChain)
        // Trusting both roots accepts it again.
        let both = SandboxFixtures.authority.trustRoots.adding(other.trustRoots.certificates)
        _ = try await SandboxFixtures.decryptor(trusting: both).verifySignature(of: token)
    }

    @Test("altered ciphertext fails the signed message digest", arguments: [MintRequest.Signer.ecLeaf, .rsaLeaf])
    func alteredData(signer: MintRequest.Signer) async throws {
        var token = try mint(signer: signer)
        token.data[0] ^= 0x01
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await SandboxFixtures.decryptor().decrypt(token, using: SandboxFixtures.keyRing())
        }
        #expect(error?.code == .messageDigestMismatch)
    }

    @Test("a token for a merchant the key ring does not hold names the missing key")
    func unknownMerchant() async throws {
        let token = try mint(signer: .ecLeaf)
        let error = await #expect(throws: ApplePayTokenError.self) {
            try await SandboxFixtures.decryptor().decrypt(token, using: MerchantKeyRing([]))
        }
        #expect(error?.code == .noMatchingKey)
    }
}
