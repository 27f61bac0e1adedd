import Foundation
import Testing

@testable import ApplePayToken

/// Corrupted tokens must end in an ApplePayTokenError, never a crash or a success.
@Suite("Hostile input")
struct HostileInputTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("random byte corruptions of real signatures are rejected cleanly", arguments: ["gala-2021", "basistheory-rsa"])
    func corruptedSignatures(name: String) async throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == name })
        let original = try vector.token()
        let decryptor = try vector.decryptorAtSigningTime()
        let ring = try vector.keyRing()
        var random = SplitMix64(state: 2026)
        var rejected = 0
        for round in 0..<300 {
            var token = original
            for _ in 0...(round % 4) {
                let index = Int.random(in: 0..<token.signature.count, using: &random)
                token.signature[index] = UInt8.random(in: 0...255, using: &random)
            }
            if token.signature == original.signature { continue }
            do {
                _ = try await decryptor.decrypt(token, using: ring)
                Issue.record("a corrupted signature was accepted (round \(round))")
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 250)
    }

    @Test("every truncation of a real signature is rejected cleanly")
    func truncatedSignatures() async throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let original = try vector.token()
        let decryptor = try vector.decryptorAtSigningTime()
        // The last bytes are end-of-contents padding; cut anywhere before them.
        for length in stride(from: 0, to: original.signature.count - 8, by: 7) {
            var token = original
            token.signature = Array(original.signature.prefix(length))
            await #expect(throws: ApplePayTokenError.self) { try await decryptor.verifySignature(of: token) }
        }
    }

    @Test("random corruptions of the token text are rejected cleanly")
    func corruptedText() throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let text = Array(try Fixtures.text(vector.file("token")).utf8)
        var random = SplitMix64(state: 7)
        for _ in 0..<500 {
            var bytes = text
            let index = Int.random(in: 0..<bytes.count, using: &random)
            bytes[index] = UInt8.random(in: 0...255, using: &random)
            do {
                _ = try PaymentToken(jsonBytes: bytes)
            } catch {
                #expect(error.code == .malformedToken || error.code == .unsupportedVersion)
            }
        }
    }
}
