import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509
import _CryptoExtras

/// The cold path of step 1: finds the signer's certificate, checks Apple's markers, the chain's
/// signatures (``ChainLinks``) and validates the path to the trust roots at the signing time.
struct ChainEvaluator {
    let trustRoots: TrustRoots
    /// Shared by every evaluation of one decryptor, for the verdicts it remembers.
    let links: ChainLinks
    /// Spent once per evaluation, at its first costly check; nil: no limit.
    let budget: NewChainBudget?

    init(trustRoots: TrustRoots, links: ChainLinks? = nil, budget: NewChainBudget? = nil) {
        self.trustRoots = trustRoots
        self.links = links ?? ChainLinks(roots: trustRoots.certificates)
        self.budget = budget
    }

    nonisolated(nonsending) func evaluate(_ signedData: CMSSignedData, at signingTime: Date) async throws(ApplePayTokenError) -> SignerChain {
        let certificates = try signedData.certificates.enumerated().map { index, bytes throws(ApplePayTokenError) in
            do {
                return try Certificate(derEncoded: Array(bytes))
            } catch {
                throw ApplePayTokenError(.signatureInvalid, "certificate \(index + 1) in the signature is not X.509")
            }
        }
        guard let leafIndex = certificates.firstIndex(where: { Self.matches($0, signedData.signer.identifier) }) else {
            throw ApplePayTokenError(.signatureInvalid, "the signer's certificate is not in the signature")
        }
        // Apple lists the leaf first (not DER's SET order); swapped is an altered copy.
        guard leafIndex == 0 else {
            throw ApplePayTokenError(.signatureInvalid, "the signer's certificate is not the first in the signature, where Apple puts it")
        }
        let leaf = certificates[leafIndex]
        var others = certificates
        others.remove(at: leafIndex)

        guard leaf.extensions[oid: OID.leafMarker] != nil else {
            throw ApplePayTokenError(
                .missingLeafMarker,
                "the signing certificate \(ChainFailure.name(leaf.subject)) lacks marker extension 1.2.840.113635.100.6.29"
            )
        }
        guard let intermediateIndex = certificates.indices.first(where: { $0 != leafIndex && certificates[$0].subject == leaf.issuer }) else {
            throw ApplePayTokenError(
                .untrustedChain,
                "the signature does not include the leaf's issuing intermediate \(ChainFailure.name(leaf.issuer))",
                chainIssuer: String(describing: leaf.issuer)
            )
        }
        let intermediate = certificates[intermediateIndex]
        guard intermediate.extensions[oid: OID.intermediateMarker] != nil else {
            throw ApplePayTokenError(
                .missingIntermediateMarker,
                "the intermediate \(ChainFailure.name(intermediate.subject)) lacks marker extension 1.2.840.113635.100.6.2.14"
            )
        }
        // Compared one by one: a hostile certificate may end before it begins, which a range would trap on.
        for certificate in [leaf, intermediate] where !ChainFailure.isValid(certificate, at: signingTime) {
            throw ApplePayTokenError(
                .untrustedChain,
                "the \(certificate == leaf ? "leaf" : "intermediate") \(ChainFailure.name(certificate.subject)) was not valid "
                    + "at the signing time \(signingTime.iso8601) (valid \(certificate.notValidBefore.iso8601) to "
                    + "\(certificate.notValidAfter.iso8601))",
                chainIssuer: String(describing: intermediate.issuer)
            )
        }
        // The budget pays for the first costly check: the root's P-384 (unless its verdict is
        // remembered), a leaf link under a costly key, or else path validation; not for refusals
        // that cost less than an approval.
        var budgetSpent = false
        func spendBudget(_ kind: NewChainBudget.Kind) throws(ApplePayTokenError) {
            guard !budgetSpent, let budget else { return }
            try budget.spend(kind)
            budgetSpent = true
        }
        var verifier = Verifier(rootCertificates: CertificateStore(trustRoots.certificates)) {
            RFC5280Policy(fixedExpiryValidationTime: signingTime)
            AppleChainPolicy()
        }
        let verdictKey = IntermediateVerdicts.key(for: signedData.certificates[intermediateIndex])
        var firstResult: CertificateValidationResult?
        if links.verdicts.verdict(for: verdictKey) == nil {
            // An intermediate not seen before: path validation checks the root's signature too,
            // so it goes first, and a real chain's first token has that P-384 checked once. Only
            // a chain it refuses has its links checked again, to say which one is broken.
            if ChainLinks.isCheapToVerify(intermediate.publicKey) { try links.checkLeaf(leaf, signedBy: intermediate) }
            try spendBudget(.newIntermediate)
            let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(others))
            if case .validCertificate(let chain) = result, let root = chain.last {
                links.remember(verdictKey, signedBy: root)
                return try Self.signerChain(leaf: leaf, chain: chain)
            }
            firstResult = result
        }
        let root = try links.root(leaf: leaf, intermediate: intermediate, verdictKey: verdictKey, spend: spendBudget)
        try spendBudget(.knownIntermediate)

        let result: CertificateValidationResult
        if let firstResult {
            result = firstResult
        } else {
            result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(others))
        }
        guard case .validCertificate(let chain) = result else {
            var policyReasons: [String] = []
            if case .couldNotValidate(let failures) = result {
                policyReasons = failures.map { String(describing: $0.policyFailureReason) }
            }
            throw ApplePayTokenError(
                .untrustedChain,
                ChainFailure.explain(
                    leaf: leaf,
                    intermediate: intermediate,
                    root: root,
                    at: signingTime,
                    policyReasons: policyReasons
                ),
                chainIssuer: String(describing: intermediate.issuer)
            )
        }
        return try Self.signerChain(leaf: leaf, chain: chain)
    }

    private static func signerChain(leaf: Certificate, chain: ValidatedCertificateChain) throws(ApplePayTokenError) -> SignerChain {
        SignerChain(
            signerKey: try signerKey(of: leaf),
            validFrom: chain.map(\.notValidBefore).max()!,
            validUntil: chain.map(\.notValidAfter).min()!
        )
    }

    private static func matches(_ certificate: Certificate, _ identifier: CMSSignerInfo.Identifier) -> Bool {
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            guard let node = try? DER.parse(issuer), let issuerName = try? DistinguishedName(derEncoded: node) else {
                return false
            }
            return certificate.issuer == issuerName
                && certificate.serialNumber.bytes.drop(while: { $0 == 0 }) == serial.drop(while: { $0 == 0 })
        case .subjectKeyIdentifier(let keyIdentifier):
            let extensionValue = try? certificate.extensions.subjectKeyIdentifier
            return extensionValue?.keyIdentifier == keyIdentifier
        }
    }

    private static func signerKey(of leaf: Certificate) throws(ApplePayTokenError) -> SignerChain.SignerKey {
        if let key = P256.Signing.PublicKey(leaf.publicKey) { return .p256(key) }
        if let key = _RSA.Signing.PublicKey(leaf.publicKey) { return .rsa(key) }
        throw ApplePayTokenError(.signatureInvalid, "the signing certificate's key is neither P-256 nor RSA")
    }
}

extension Date {
    /// For refusal messages. The format style is plain Swift; `ISO8601DateFormatter` built an ICU
    /// formatter (about 600 allocations) per call, so every stale token cost far more to refuse
    /// than a good one did to accept.
    var iso8601: String { formatted(.iso8601) }
}
