import Foundation
import Testing
import X509

@testable import ApplePayToken

/// Copies of real Apple signatures, altered in ways BER allows but Apple's encoder never
/// produces: each is refused, while every real vector verifies (ConformanceVectorTests).
@Suite("CMS signatures: exactly what Apple writes")
struct CMSStrictnessTests {
    static var realTokens: [ConformanceVector] { ConformanceVector.tokens }

    /// The DER of the leaf and the intermediate, as they sit in the signature.
    static func certificates(_ token: PaymentToken) throws -> (leaf: [UInt8], intermediate: [UInt8]) {
        let signedData = try CMSSignedData(berEncoded: token.signature)
        return (Array(signedData.certificates[0]), Array(signedData.certificates[1]))
    }

    static func refused(_ vector: ConformanceVector, _ signature: [UInt8]) async throws -> ApplePayTokenError? {
        var token = try vector.token()
        #expect(signature != token.signature)
        token.signature = signature
        return await #expect(throws: ApplePayTokenError.self) {
            try await vector.decryptorAtSigningTime().verifySignature(of: token)
        }
    }

    @Test("certificates in swapped order", arguments: realTokens)
    func swapped(vector: ConformanceVector) async throws {
        let token = try vector.token()
        let (leaf, intermediate) = try Self.certificates(token)
        let swapped = try #require(token.signature.replacing(leaf + intermediate, with: intermediate + leaf))
        let error = try await Self.refused(vector, swapped)
        #expect(error?.reason.contains("first") == true, "\(error?.reason ?? "")")
    }

    @Test("a duplicated leaf or intermediate", arguments: realTokens, [true, false])
    func duplicated(vector: ConformanceVector, leafTwice: Bool) async throws {
        let token = try vector.token()
        let (leaf, intermediate) = try Self.certificates(token)
        // The certificates' [0] has an indefinite length in Apple's encoding, so one more fits.
        let extra = leafTwice ? leaf + leaf + intermediate : leaf + intermediate + intermediate
        let duplicated = try #require(token.signature.replacing(leaf + intermediate, with: extra))
        let error = try await Self.refused(vector, duplicated)
        #expect(error?.reason.contains("once each") == true, "\(error?.reason ?? "")")
    }

    @Test("an indefinite length on signerInfos, where Apple writes a definite one", arguments: realTokens)
    func indefiniteInner(vector: ConformanceVector) async throws {
        let token = try vector.token()
        let signedData = try BERElement.parse(token.signature[...]).children()[1].children()[0].children()
        let signerInfos = signedData[4]
        // Same contents, with 0x80 for its length and end-of-contents after them.
        let reencoded = [signerInfos.tag, 0x80] + Array(signerInfos.contents) + [0, 0]
        var signature = token.signature
        signature.replaceSubrange(signerInfos.encoded.startIndex..<signerInfos.encoded.endIndex, with: reencoded)
        let error = try await Self.refused(vector, signature)
        #expect(error?.reason.contains("indefinite length") == true, "\(error?.reason ?? "")")
    }
}

extension Array where Element == UInt8 {
    /// The array with the first occurrence of `pattern` replaced, or nil when there is none.
    fileprivate func replacing(_ pattern: [UInt8], with replacement: [UInt8]) -> [UInt8]? {
        guard pattern.count <= count else { return nil }
        for start in 0...(count - pattern.count) where self[start..<(start + pattern.count)].elementsEqual(pattern) {
            var copy = self
            copy.replaceSubrange(start..<(start + pattern.count), with: replacement)
            return copy
        }
        return nil
    }
}
