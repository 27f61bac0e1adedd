import Foundation
import Testing

@testable import ApplePayToken

/// The signature container is read as strictly as Apple writes it: a copy of a real signature with
/// any bit changed, in a part the signature covers or not, or with anything appended, is refused.
@Suite("Strict signature container")
struct SignatureStrictnessTests {
    static func isAccepted(_ signature: [UInt8], of token: PaymentToken, by decryptor: ApplePayTokenDecryptor) async -> Bool {
        var altered = token
        altered.signature = signature
        return (try? await decryptor.verifySignature(of: altered)) != nil
    }

    /// Apple's layout: ContentInfo (30 80), its OID, [0] (A0 80), SignedData (30 80), then the
    /// SignedData version INTEGER 1 and the digestAlgorithms SET.
    static let versionOffset = 19
    static let digestAlgorithmsOffset = 20

    @Test("the parts no signature covers are checked: tags, version, digest algorithms, padding, trailing bytes", arguments: ConformanceVector.tokens)
    func unsignedParts(vector: ConformanceVector) async throws {
        let token = try vector.token()
        let decryptor = try vector.decryptorAtSigningTime()
        let signature = token.signature
        #expect(await Self.isAccepted(signature, of: token, by: decryptor), "the real signature verifies")
        #expect(Array(signature[15...20]) == [0x30, 0x80, 0x02, 0x01, 0x01, 0x31], "Apple's layout")

        var altered: [[UInt8]] = []
        for bit in 0..<8 {
            for offset in [0, Self.versionOffset, Self.digestAlgorithmsOffset, Self.digestAlgorithmsOffset + 1] {
                var copy = signature
                copy[offset] ^= 1 << bit
                altered.append(copy)
            }
        }
        for padding: UInt8 in 1...7 {
            for certificate in try CMSSignedData(berEncoded: signature).certificates {
                var copy = signature
                copy[try Self.unusedBitsOffset(of: certificate)] = padding
                altered.append(copy)
            }
        }
        for trailer: [UInt8] in [[0], [0, 0], [1], [0xFF, 0xFF]] { altered.append(signature + trailer) }
        for (index, copy) in altered.enumerated() {
            #expect(!(await Self.isAccepted(copy, of: token, by: decryptor)), "altered copy \(index) was accepted")
        }
    }

    /// Encodings that mean the same to a lax verifier but that Apple never writes: the first was
    /// token-fuzz's finding in CI (an RSA signer relabelled rsaEncryption, RFC 3370's alias).
    @Test("equivalent encodings Apple never writes are refused: rsaEncryption, padded lengths, a second digest spelling")
    func equivalentEncodings() async throws {
        let rsa = try #require(ConformanceVector.tokens.first { $0.name == "basistheory-rsa" })
        let rsaToken = try rsa.token()
        let rsaDecryptor = try rsa.decryptorAtSigningTime()
        let sha256WithRSA: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
        let signerAlgorithm = try #require(Self.lastRange(of: sha256WithRSA, in: rsaToken.signature))
        var relabelled = rsaToken.signature
        relabelled[signerAlgorithm.upperBound - 1] = 0x01
        #expect(await Self.isAccepted(rsaToken.signature, of: rsaToken, by: rsaDecryptor))
        #expect(!(await Self.isAccepted(relabelled, of: rsaToken, by: rsaDecryptor)), "rsaEncryption in SignerInfo")

        // gala-2021 writes SHA-256 with NULL parameters in both places; its SignedData is
        // indefinite-length, so bytes can be inserted or removed inside it without other changes.
        let gala = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let token = try gala.token()
        let decryptor = try gala.decryptorAtSigningTime()
        let signature = token.signature
        #expect(Array(signature[20...23]) == [0x31, 0x0F, 0x30, 0x0D], "digestAlgorithms with NULL parameters")
        var paddedLength = signature
        paddedLength.insert(0x81, at: Self.digestAlgorithmsOffset + 1)
        let withoutNull = Array(signature[..<20]) + [0x31, 0x0D, 0x30, 0x0B] + signature[24..<35] + signature[37...]
        #expect(Array(signature[35...36]) == [0x05, 0x00])
        #expect(!(await Self.isAccepted(paddedLength, of: token, by: decryptor)), "a length in long form")
        #expect(!(await Self.isAccepted(withoutNull, of: token, by: decryptor)), "digestAlgorithms spelt unlike the signer's")
    }

    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        stride(from: haystack.count - needle.count, through: 0, by: -1).lazy
            .map { $0..<($0 + needle.count) }
            .first { haystack[$0].elementsEqual(needle) }
    }

    /// Where a certificate's signature BIT STRING keeps its unused-bits octet.
    static func unusedBitsOffset(of certificate: ArraySlice<UInt8>) throws -> Int {
        let parts = try BERElement.parse(certificate).children()
        #expect(parts.count == 3 && parts[2].tag == 0x03)
        return parts[2].contents.startIndex
    }

    @Test(
        "every single-bit flip of a real signature, outside the certificates' signed bodies, is refused",
        arguments: ["gala-2021", "basistheory-rsa"]
    )
    func everyBitFlip(name: String) async throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == name })
        let token = try vector.token()
        let decryptor = try vector.decryptorAtSigningTime()
        let signature = token.signature
        // The certificates' own signatures cover their bodies; flips there fail the chain, and
        // each costs a whole chain evaluation, so the sweep covers everything else.
        let skipped = try CMSSignedData(berEncoded: signature).certificates.map { certificate in
            let body = try BERElement.parse(certificate).children()[0].contents
            return body.startIndex..<body.endIndex
        }
        var accepted: [String] = []
        var tried = 0
        for offset in signature.indices where !skipped.contains(where: { $0.contains(offset) }) {
            for bit in 0..<8 {
                var copy = signature
                copy[offset] ^= 1 << bit
                tried += 1
                if await Self.isAccepted(copy, of: token, by: decryptor) { accepted.append("\(offset).\(bit)") }
            }
        }
        #expect(tried > 2000)
        #expect(accepted.isEmpty, "accepted flips (offset.bit): \(accepted.prefix(20))")
    }
}
