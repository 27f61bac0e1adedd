import Crypto
import Foundation
import _CryptoExtras

/// What Apple's step 1 established about a token.
public struct VerifiedSignature: Sendable, Hashable {
    /// The CMS signing time.
    public var signingTime: Date
}

/// Apple's step 1, whole: signature structure, message digest, signing time, chain and the
/// signature over the signed attributes.
struct TokenSignatureVerifier {
    let evaluator: ChainEvaluator
    let cache: ChainVerdictCache
    let signingTimeWindow: TimeInterval

    nonisolated(nonsending) func verify(_ token: PaymentToken, now: Date) async throws(ApplePayTokenError) -> VerifiedSignature {
        let signedData: CMSSignedData
        do {
            signedData = try CMSSignedData(berEncoded: token.signature)
        } catch {
            throw ApplePayTokenError(error)
        }
        let signer = signedData.signer
        guard signer.digestAlgorithm.elementsEqual(OID.sha256Contents) else {
            throw ApplePayTokenError(.signatureInvalid, "the signature's digest algorithm is not SHA-256")
        }
        guard SHA256.hash(data: token.signedContent).elementsEqual(signer.messageDigest) else {
            throw ApplePayTokenError(
                .messageDigestMismatch,
                "the signed messageDigest does not match the token's \(token.version == .ecV1 ? "ephemeralPublicKey" : "wrappedKey"), data, transactionId and applicationData"
            )
        }
        guard let signingTime = signer.signingTime?.date else {
            throw ApplePayTokenError(.signatureInvalid, "the signature has no signingTime attribute")
        }
        let skew = signingTime.timeIntervalSince(now)
        guard abs(skew) <= signingTimeWindow else {
            throw ApplePayTokenError(
                .signingTimeOutsideWindow,
                "the token was signed at \(signingTime.iso8601), \(Self.describe(skew)) the current time \(now.iso8601); "
                    + "the window is \(Int(signingTimeWindow)) seconds"
            )
        }

        let key = ChainVerdictCache.key(for: signedData)
        let chain: SignerChain
        if let cached = cache.lookup(key), cached.isValid(at: signingTime) {
            chain = cached
        } else {
            do {
                try signedData.requireDefiniteCertificates()
            } catch {
                throw ApplePayTokenError(error)
            }
            chain = try await evaluator.evaluate(signedData, at: signingTime)
            cache.store(chain, for: key)
        }
        guard Self.isValid(signer, by: chain.signerKey) else {
            throw ApplePayTokenError(.signatureInvalid, "the signature does not verify with the signing certificate's key")
        }
        return VerifiedSignature(signingTime: signingTime)
    }

    private static func isValid(_ signer: CMSSignerInfo, by key: SignerChain.SignerKey) -> Bool {
        switch key {
        case .p256(let publicKey):
            guard signer.signatureAlgorithm.elementsEqual(OID.ecdsaWithSHA256Identifier),
                let raw = ECDSASignatureDER.rawP256(signer.signature),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return publicKey.isValidSignature(signature, for: signer.signedAttributesDER)
        case .rsa(let publicKey):
            guard signer.signatureAlgorithm.elementsEqual(OID.sha256WithRSAEncryptionIdentifier) else { return false }
            let signature = _RSA.Signing.RSASignature(rawRepresentation: signer.signature)
            return publicKey.isValidSignature(signature, for: signer.signedAttributesDER, padding: .insecurePKCS1v1_5)
        }
    }

    private static func describe(_ skew: TimeInterval) -> String {
        let seconds = Int(abs(skew))
        let amount =
            switch seconds {
            case 172_800...: "\(seconds / 86_400) days"
            case 60...: "\(seconds / 60) minutes"
            default: "\(seconds) seconds"
            }
        return skew < 0 ? "\(amount) before" : "\(amount) after"
    }
}
