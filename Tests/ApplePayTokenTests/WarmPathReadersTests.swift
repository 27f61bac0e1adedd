import Crypto
import Foundation
import Testing

@testable import ApplePayToken

/// The readers the warm path uses instead of swift-crypto's general DER ones: they must read
/// exactly what swift-crypto reads and refuse what it refuses.
@Suite("Warm-path readers: ECDSA signatures, ephemeral keys, certificates checked once")
struct WarmPathReadersTests {
    static var ecdsaSigned: [ConformanceVector] {
        ConformanceVector.tokens.filter { vector in
            guard let token = try? vector.token(), let signedData = try? CMSSignedData(berEncoded: token.signature) else {
                return false
            }
            return signedData.signer.signatureAlgorithm.elementsEqual(OID.ecdsaWithSHA256Identifier)
        }
    }

    @Test("a real signature's r and s, read in place, are what swift-crypto reads", arguments: ecdsaSigned)
    func realSignature(vector: ConformanceVector) throws {
        let signature = try CMSSignedData(berEncoded: try vector.token().signature).signer.signature
        let raw = try #require(ECDSASignatureDER.rawP256(signature))
        #expect(raw == Array(try P256.Signing.ECDSASignature(derRepresentation: signature).rawRepresentation))
    }

    @Test("any signature swift-crypto writes reads back to the same r and s")
    func generated() throws {
        let key = P256.Signing.PrivateKey()
        // 300 signatures cover r and s with leading zero octets and with the high bit set.
        for index in 0..<300 {
            let signature = try key.signature(for: Array("message \(index)".utf8))
            let raw = try #require(ECDSASignatureDER.rawP256(Array(signature.derRepresentation)[...]))
            #expect(raw == Array(signature.rawRepresentation))
        }
    }

    @Test(
        "encodings DER does not allow are refused, as swift-crypto refuses them",
        arguments: [
            ("a padded integer", [0x30, 0x08, 0x02, 0x02, 0x00, 0x01, 0x02, 0x02, 0x00, 0x01]),
            ("a negative integer", [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]),
            ("an empty integer", [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x01]),
            ("a trailing octet", [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]),
            ("a length past the end", [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x05, 0x01]),
            ("one integer", [0x30, 0x03, 0x02, 0x01, 0x01]),
            ("three integers", [0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("a SET", [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("a long-form length", [0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("an integer of 33 octets", [0x30, 0x26, 0x02, 0x21, 0x01] + [UInt8](repeating: 1, count: 32) + [0x02, 0x01, 0x01]),
            ("nothing", []),
        ] as [(String, [UInt8])]
    )
    func malformed(_ label: String, _ der: [UInt8]) {
        #expect(ECDSASignatureDER.rawP256(der[...]) == nil, "\(label)")
        #expect(throws: (any Error).self, "\(label)") { try P256.Signing.ECDSASignature(derRepresentation: der) }
    }

    @Test("an uncompressed ephemeral key reads as swift-crypto's DER reader reads it", arguments: ConformanceVector.tokens)
    func ephemeralKey(vector: ConformanceVector) throws {
        guard case .ephemeralPublicKey(let der) = try vector.token().header.keyExchange else { return }
        #expect(der.starts(with: P256SubjectPublicKeyInfo.uncompressedHeader))
        let fast = try P256SubjectPublicKeyInfo.keyAgreementKey(der)
        #expect(fast.x963Representation == (try P256.KeyAgreement.PublicKey(derRepresentation: der)).x963Representation)
    }

    @Test("a point off the curve is refused on the fast path; other encodings take swift-crypto's reader")
    func otherKeys() throws {
        let key = P256.KeyAgreement.PrivateKey().publicKey
        var offCurve = P256SubjectPublicKeyInfo.uncompressedHeader + Array(key.x963Representation)
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: (any Error).self) { try P256SubjectPublicKeyInfo.keyAgreementKey(offCurve) }
        // The same key as a compressed point: not the fixed header, so swift-crypto decides.
        var compressed = P256SubjectPublicKeyInfo.uncompressedHeader
        compressed[1] = 0x39  // 33 octets fewer
        compressed[compressed.count - 2] = 0x22
        compressed += Array(key.compressedRepresentation)
        let viaSwiftCrypto = try? P256.KeyAgreement.PublicKey(derRepresentation: compressed)
        let viaReader = try? P256SubjectPublicKeyInfo.keyAgreementKey(compressed)
        #expect(viaReader?.x963Representation == viaSwiftCrypto?.x963Representation)
    }

    @Test("an indefinite length inside a certificate is refused, also after the real chain was verified", arguments: ecdsaSigned)
    func indefiniteInsideCertificateAfterWarmUp(vector: ConformanceVector) async throws {
        let token = try vector.token()
        let decryptor = try vector.decryptorAtSigningTime()
        _ = try await decryptor.verifySignature(of: token)  // the chain is now cached

        // The leaf with its tbsCertificate re-encoded with an indefinite length: other bytes, so
        // another cache key, and the cold path's check refuses it.
        let leaf = try CMSSignedData(berEncoded: token.signature).certificates[0]
        let parts = try BERElement.parse(leaf).children()
        let tbs = [parts[0].tag, 0x80] + Array(parts[0].contents) + [0, 0]
        let altered = DERElement.encode(tag: BERElement.sequence, [tbs[...], parts[1].encoded, parts[2].encoded])
        var signature = token.signature
        let start = try #require(signature.firstRange(of: Array(leaf)))
        signature.replaceSubrange(start, with: altered)
        var alteredToken = token
        alteredToken.signature = signature

        let error = await #expect(throws: ApplePayTokenError.self) { try await decryptor.verifySignature(of: alteredToken) }
        #expect(error?.reason.contains("indefinite length") == true, "\(error?.reason ?? "")")
        #expect(decryptor.chainCacheStatistics.entries == 1)
        _ = try await decryptor.verifySignature(of: token)
    }
}
