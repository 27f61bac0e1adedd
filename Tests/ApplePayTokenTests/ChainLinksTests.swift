import Foundation
import Testing
import X509

@testable import ApplePayToken

/// The chain's signatures checked link by link (``ChainLinks``), on Apple's real chains, and the
/// root's link remembered.
@Suite("chain links")
struct ChainLinksTests {
    /// The leaf and intermediate of a real token, as its signature carries them.
    private func chain(of vector: ConformanceVector) throws -> (leaf: ArraySlice<UInt8>, intermediate: ArraySlice<UInt8>) {
        let certificates = try CMSSignedData(berEncoded: vector.token().signature).certificates
        return (certificates[0], certificates[1])
    }

    /// A copy with one byte of its signature value changed: the same key and names, a forged signature.
    private func withAlteredSignature(_ der: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var altered = Array(der)
        altered[altered.count - 3] ^= 0x01
        return altered[...]
    }

    @Test("a forged intermediate is refused at its link, again from the remembered verdict, and never evicts a good one")
    func forgedIntermediate() throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let (leafDER, intermediateDER) = try chain(of: vector)
        let leaf = try Certificate(derEncoded: Array(leafDER))
        let intermediate = try Certificate(derEncoded: Array(intermediateDER))
        let links = ChainLinks(roots: [TrustRoots.appleRootCAG3], verdictCapacity: 2)

        #expect(try links.root(leaf: leaf, intermediate: intermediate, intermediateDER: intermediateDER) == TrustRoots.appleRootCAG3)
        let forgedDER = withAlteredSignature(intermediateDER)
        let forged = try Certificate(derEncoded: Array(forgedDER))
        for _ in 0..<2 {
            let error = #expect(throws: ApplePayTokenError.self) {
                try links.root(leaf: leaf, intermediate: forged, intermediateDER: forgedDER)
            }
            #expect(error?.code == .untrustedChain)
            #expect(error?.reason.contains("is not signed by the trust root 'Apple Root CA - G3'") == true, "\(error?.reason ?? "")")
        }
        #expect(links.verdicts.counts == (signed: 1, unsigned: 1))

        // More forgeries than the memo holds: the good verdict stays.
        for offset in [5, 7, 9] {
            var other = Array(intermediateDER)
            other[other.count - offset] ^= 0x01
            let otherDER = other[...]
            guard let certificate = try? Certificate(derEncoded: other) else { continue }
            #expect(throws: ApplePayTokenError.self) {
                try links.root(leaf: leaf, intermediate: certificate, intermediateDER: otherDER)
            }
        }
        #expect(links.verdicts.counts.signed == 1)
        #expect(links.verdicts.counts.unsigned == 2)
        let key = IntermediateVerdicts.key(for: intermediateDER)
        guard case .signedByRoot(0) = links.verdicts.verdict(for: key) else {
            Issue.record("the good intermediate's verdict was evicted by forgeries")
            return
        }
    }

    @Test("a leaf its intermediate did not sign is refused before the root's link is checked")
    func forgedLeaf() throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let (leafDER, intermediateDER) = try chain(of: vector)
        let forgedLeaf = try Certificate(derEncoded: Array(withAlteredSignature(leafDER)))
        let intermediate = try Certificate(derEncoded: Array(intermediateDER))
        let links = ChainLinks(roots: [TrustRoots.appleRootCAG3])
        let error = #expect(throws: ApplePayTokenError.self) {
            try links.root(leaf: forgedLeaf, intermediate: intermediate, intermediateDER: intermediateDER)
        }
        #expect(error?.reason.contains("is not signed by the intermediate") == true, "\(error?.reason ?? "")")
        #expect(links.verdicts.counts == (signed: 0, unsigned: 0))
    }
}
