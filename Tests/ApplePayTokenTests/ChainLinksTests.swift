import Crypto
import Foundation
import SwiftASN1
import Synchronization
import Testing
import X509
import _CryptoExtras

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

        #expect(
            try links.root(leaf: leaf, intermediate: intermediate, verdictKey: IntermediateVerdicts.key(for: intermediateDER))
                == TrustRoots.appleRootCAG3
        )
        let forgedDER = withAlteredSignature(intermediateDER)
        let forged = try Certificate(derEncoded: Array(forgedDER))
        for _ in 0..<2 {
            let error = #expect(throws: ApplePayTokenError.self) {
                try links.root(leaf: leaf, intermediate: forged, verdictKey: IntermediateVerdicts.key(for: forgedDER))
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
                try links.root(leaf: leaf, intermediate: certificate, verdictKey: IntermediateVerdicts.key(for: otherDER))
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

    /// A root, an intermediate with a key of the given kind, and a leaf it signed.
    private func chain(
        intermediateKey: Certificate.PrivateKey,
        signedWith algorithm: Certificate.SignatureAlgorithm
    ) throws
        -> (root: Certificate, intermediate: Certificate, leaf: Certificate)
    {
        let rootKey = P256.Signing.PrivateKey()
        let now = Date()
        func issue(
            _ subject: String,
            _ key: Certificate.PublicKey,
            by issuer: String,
            _ issuerKey: Certificate.PrivateKey,
            _ algorithm: Certificate.SignatureAlgorithm
        ) throws
            -> Certificate
        {
            try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: key,
                notValidBefore: now - 3600,
                notValidAfter: now + 3600,
                issuer: try DistinguishedName { CommonName(issuer) },
                subject: try DistinguishedName { CommonName(subject) },
                signatureAlgorithm: algorithm,
                extensions: Certificate.Extensions(),
                issuerPrivateKey: issuerKey
            )
        }
        let root = try issue("Root", Certificate.PublicKey(rootKey.publicKey), by: "Root", Certificate.PrivateKey(rootKey), .ecdsaWithSHA256)
        let intermediate = try issue("Intermediate", intermediateKey.publicKey, by: "Root", Certificate.PrivateKey(rootKey), .ecdsaWithSHA256)
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try issue("Leaf", Certificate.PublicKey(leafKey.publicKey), by: "Intermediate", intermediateKey, algorithm)
        return (root, intermediate, leaf)
    }

    @Test("a leaf link under a costly intermediate key is paid for from the budget before it is checked; Apple's P-256 is not")
    func costlyIntermediateKey() throws {
        let (root, intermediate, leaf) = try chain(intermediateKey: Certificate.PrivateKey(P384.Signing.PrivateKey()), signedWith: .ecdsaWithSHA384)
        var serializer = DER.Serializer()
        try serializer.serialize(intermediate)
        let intermediateDER = serializer.serializedBytes[...]
        #expect(!ChainLinks.isCheapToVerify(intermediate.publicKey))
        let links = ChainLinks(roots: [root])

        // An empty budget refuses before the P-384 check of the leaf.
        let busy = #expect(throws: ApplePayTokenError.self) {
            try links.root(leaf: leaf, intermediate: intermediate, verdictKey: IntermediateVerdicts.key(for: intermediateDER)) {
                _ throws(ApplePayTokenError) in
                throw ApplePayTokenError(.verificationBusy, "empty")
            }
        }
        #expect(busy?.code == .verificationBusy)
        #expect(links.verdicts.counts == (signed: 0, unsigned: 0))

        // With budget: the leaf link, then the root link (the evaluator spends once per chain).
        var spent: [NewChainBudget.Kind] = []
        #expect(
            try links.root(leaf: leaf, intermediate: intermediate, verdictKey: IntermediateVerdicts.key(for: intermediateDER)) { spent.append($0) }
                == root
        )
        #expect(spent == [.newIntermediate, .newIntermediate])
        // Once the intermediate is known, its costly leaf links come from the other bucket.
        spent = []
        _ = try links.root(leaf: leaf, intermediate: intermediate, verdictKey: IntermediateVerdicts.key(for: intermediateDER)) { spent.append($0) }
        #expect(spent == [.knownIntermediate])

        // Apple's own intermediate key is P-256: its leaf link is free.
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        #expect(ChainLinks.isCheapToVerify(try Certificate(derEncoded: Array(try self.chain(of: vector).intermediate)).publicKey))
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(ChainLinks.isCheapToVerify(Certificate.PublicKey(rsa.publicKey)))
    }

    @Test("a leaf its intermediate did not sign is refused before the root's link is checked")
    func forgedLeaf() throws {
        let vector = try #require(ConformanceVector.tokens.first { $0.name == "gala-2021" })
        let (leafDER, intermediateDER) = try chain(of: vector)
        let forgedLeaf = try Certificate(derEncoded: Array(withAlteredSignature(leafDER)))
        let intermediate = try Certificate(derEncoded: Array(intermediateDER))
        let links = ChainLinks(roots: [TrustRoots.appleRootCAG3])
        let error = #expect(throws: ApplePayTokenError.self) {
            try links.root(leaf: forgedLeaf, intermediate: intermediate, verdictKey: IntermediateVerdicts.key(for: intermediateDER))
        }
        #expect(error?.reason.contains("is not signed by the intermediate") == true, "\(error?.reason ?? "")")
        #expect(links.verdicts.counts == (signed: 0, unsigned: 0))
    }
}

@Suite("new chain budget")
struct NewChainBudgetUnitTests {
    @Test("a budget of two a second: two spends, then busy until the clock refills it; a clock set back refills nothing")
    func bucket() throws {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let budget = NewChainBudget(perSecond: 2, clock: { now.withLock { $0 } })
        try budget.spend(.newIntermediate)
        try budget.spend(.newIntermediate)
        let error = #expect(throws: ApplePayTokenError.self) { try budget.spend(.newIntermediate) }
        #expect(error?.code == .verificationBusy)
        #expect(error?.reason.contains("2 new chains a second") == true)
        now.withLock { $0 += 0.5 }
        try budget.spend(.newIntermediate)
        #expect(throws: ApplePayTokenError.self) { try budget.spend(.newIntermediate) }
        now.withLock { $0 -= 60 }
        #expect(throws: ApplePayTokenError.self) { try budget.spend(.newIntermediate) }
        now.withLock { $0 += 60.5 }
        try budget.spend(.newIntermediate)
        // New leaves under a verified intermediate have their own bucket, untouched by the above.
        try budget.spend(.knownIntermediate)
        try budget.spend(.knownIntermediate)
        #expect(throws: ApplePayTokenError.self) { try budget.spend(.knownIntermediate) }
    }

    @Test("one new chain a second per kind: forgeries wait, a new leaf under a verified intermediate does not, a cached chain never")
    func decryptor() async throws {
        let minted = try await MintedTokens.shared()
        let decryptor = try minted.decryptor(newChainsPerSecond: 1)
        let ec = try minted.token("ec-application-data")
        _ = try await decryptor.verifySignature(of: ec)  // spends this second's new intermediate

        // A forged intermediate (one byte of its signature changed) finds its bucket empty.
        var forged = ec
        let intermediate = try CMSSignedData(berEncoded: ec.signature).certificates[1]
        let place = try #require(forged.signature.firstRange(of: Array(intermediate)))
        forged.signature[place.upperBound - 3] ^= 0x01
        let busy = await #expect(throws: ApplePayTokenError.self) { try await decryptor.verifySignature(of: forged) }
        #expect(busy?.code == .verificationBusy)

        _ = try await decryptor.verifySignature(of: ec)  // cached: no budget
        #expect(decryptor.chainCacheStatistics.entries == 1)
    }

    @Test("a chain under an intermediate already verified spends the other bucket")
    func knownIntermediate() async throws {
        let minted = try await MintedTokens.shared()
        let signedData = try CMSSignedData(berEncoded: minted.token("ec-application-data").signature)
        let signingTime = try #require(signedData.signer.signingTime?.date)
        let roots = try minted.decryptor().trustRoots
        let evaluator = ChainEvaluator(
            trustRoots: roots,
            links: ChainLinks(roots: roots.certificates),
            budget: NewChainBudget(perSecond: 1, clock: { signingTime })
        )
        // Evaluated afresh each time (the chain cache is the decryptor's, not the evaluator's):
        // first as a new intermediate, then as a new leaf under a known one, then neither is left.
        _ = try await evaluator.evaluate(signedData, at: signingTime)
        _ = try await evaluator.evaluate(signedData, at: signingTime)
        let busy = await #expect(throws: ApplePayTokenError.self) { try await evaluator.evaluate(signedData, at: signingTime) }
        #expect(busy?.code == .verificationBusy)
    }
}
