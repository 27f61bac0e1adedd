import Crypto
import X509
import _CryptoExtras

/// The chain's two certificate signatures (Apple's step 1: the leaf signed by the intermediate,
/// the intermediate by a trust root), checked cheapest first, to refuse a forged chain and say
/// which link is broken. ``ChainEvaluator`` runs path validation first for an intermediate it
/// has not seen (it checks the root's signature as well) and these checks only when that fails.
///
/// The root's link is the costly one: P-384 for Apple Root CA - G3, about 1.1 ms with
/// swift-crypto on this project's machines, three approvals' worth. It used to be checked twice
/// for a refused chain (by path validation, then again to say which link failed), and a forger
/// makes a new intermediate by changing any byte. ``IntermediateVerdicts`` remembers each
/// intermediate's answer (keyed by ``IntermediateVerdicts/key(for:)``), so a forgery sent again
/// costs less than an approval. Path validation (`X509.Verifier`) has the last word on a chain
/// that passes here.
final class ChainLinks: Sendable {
    let roots: [Certificate]
    let verdicts: IntermediateVerdicts

    init(roots: [Certificate], verdictCapacity: Int = 64) {
        self.roots = roots
        self.verdicts = IntermediateVerdicts(capacity: verdictCapacity)
    }

    /// The trust root that signed `intermediate`, once the leaf is known to be signed by it.
    /// `spend` is called before each costly check (it may refuse): the root's signature, unless
    /// its verdict is remembered, and the leaf's, when the intermediate's key is a costly one.
    func root(
        leaf: Certificate,
        intermediate: Certificate,
        verdictKey key: IntermediateVerdicts.Key,
        spend: (NewChainBudget.Kind) throws(ApplePayTokenError) -> Void = { _ in }
    ) throws(ApplePayTokenError) -> Certificate {
        func broken(_ explanation: String) -> ApplePayTokenError {
            ApplePayTokenError(.untrustedChain, explanation, chainIssuer: String(describing: intermediate.issuer))
        }
        let remembered = verdicts.verdict(for: key)
        // Apple's intermediates have P-256 keys; a forger may pick one that costs ten times as
        // much to check (P-521, RSA-16384), so that check comes out of the budget.
        if !Self.isCheapToVerify(intermediate.publicKey) {
            if case .signedByRoot = remembered { try spend(.knownIntermediate) } else { try spend(.newIntermediate) }
        }
        try checkLeaf(leaf, signedBy: intermediate)
        let namesakes = roots.indices.filter { roots[$0].subject == intermediate.issuer }
        guard !namesakes.isEmpty else {
            throw broken(
                "the intermediate \(ChainFailure.name(intermediate.subject)) was issued by \(ChainFailure.name(intermediate.issuer)), "
                    + "which is not a configured trust root"
            )
        }
        let verdict: IntermediateVerdicts.Verdict
        if let remembered {
            verdict = remembered
        } else {
            try spend(.newIntermediate)
            verdict = signingRoot(of: intermediate, among: namesakes)
            verdicts.record(verdict, for: key)
        }
        guard case .signedByRoot(let index) = verdict else {
            throw broken(
                "the intermediate \(ChainFailure.name(intermediate.subject)) is not signed by the trust root \(ChainFailure.name(intermediate.issuer)): "
                    + "its signature does not verify with the root's key (an altered intermediate, or another root of that name)"
            )
        }
        return roots[index]
    }

    /// The leaf link alone.
    func checkLeaf(_ leaf: Certificate, signedBy intermediate: Certificate) throws(ApplePayTokenError) {
        guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
            throw ApplePayTokenError(
                .untrustedChain,
                "the leaf \(ChainFailure.name(leaf.subject)) is not signed by the intermediate \(ChainFailure.name(intermediate.subject)): "
                    + "its signature does not verify with the intermediate's key (an altered or re-issued leaf)",
                chainIssuer: String(describing: intermediate.issuer)
            )
        }
    }

    /// Records what path validation proved: `root` signed the intermediate.
    func remember(_ key: IntermediateVerdicts.Key, signedBy root: Certificate) {
        guard let index = roots.firstIndex(of: root) else { return }
        verdicts.record(.signedByRoot(index), for: key)
    }

    /// P-256 (Apple's keys) or RSA up to 4096 bits: a check that costs less than an approval's
    /// own. P-384 costs about 1.1 ms with swift-crypto, P-521 and RSA-16384 more.
    static func isCheapToVerify(_ key: Certificate.PublicKey) -> Bool {
        if P256.Signing.PublicKey(key) != nil { return true }
        if let rsa = _RSA.Signing.PublicKey(key) { return rsa.keySizeInBits <= 4096 }
        return false
    }

    private func signingRoot(of intermediate: Certificate, among namesakes: [Int]) -> IntermediateVerdicts.Verdict {
        let index = namesakes.first { roots[$0].publicKey.isValidSignature(intermediate.signature, for: intermediate) }
        return index.map { .signedByRoot($0) } ?? .unsigned
    }
}
