import Crypto
import Foundation

/// Google's signature checks: the intermediate key against the roots, its expiration, and the
/// message signature for the recipient (ECv1: the message signature against the roots).
struct TokenSignatureVerifier {
    let roots: GoogleRootSigningKeys

    /// Verified intermediate keys (the decryptor's, shared by its copies).
    let intermediateKeys: IntermediateKeyCache

    /// Verifies `token` for `recipientId` at `now`; returns the intermediate key's expiration, if any.
    func verify(_ token: GooglePaymentMethodToken, recipientId: String, now: Date) throws(GooglePayTokenError) -> Date? {
        guard let intermediate = token.intermediateSigningKey else {
            return try verifyECv1(token, recipientId: recipientId, now: now)
        }
        let cacheKey = IntermediateKeyCache.Key(protocolVersion: token.protocolVersion, intermediate: intermediate)
        let cached = intermediateKeys.lookup(cacheKey, at: now)
        // A cached key's root is unexpired, so a usable root exists: a hit skips no refusal.
        let usableRoots = cached == nil ? try usableRoots(for: token, at: now) : []
        let messageSignature = try Self.signature(token.signature, field: "signature")
        let key: IntermediateKeyCache.Entry
        if let cached {
            key = cached
        } else {
            key = try verifiedIntermediateKey(token, intermediate, cacheKey: cacheKey, usableRoots: usableRoots)
        }
        guard now < key.keyExpiration else {
            throw GooglePayTokenError(
                .intermediateKeyExpired,
                "the intermediate signing key expired at \(key.keyExpiration.formatted(.iso8601)); it is \(now.formatted(.iso8601))",
                field: "intermediateSigningKey.signedKey"
            )
        }
        guard key.publicKey.isValidSignature(messageSignature, for: SignedContent.messageDigest(token, recipientId: recipientId)) else {
            throw GooglePayTokenError(
                .messageSignatureInvalid,
                "the message signature does not verify for recipient \(recipientId.prefix(80)) "
                    + "(a token for another recipient, or an altered signedMessage or signature)",
                field: "signature"
            )
        }
        return key.keyExpiration
    }

    /// ECv1: a root key signs the message itself.
    private func verifyECv1(_ token: GooglePaymentMethodToken, recipientId: String, now: Date) throws(GooglePayTokenError) -> Date? {
        let usableRoots = try usableRoots(for: token, at: now)
        let messageSignature = try Self.signature(token.signature, field: "signature")
        let signedMessage = SignedContent.message(token, recipientId: recipientId)
        guard usableRoots.contains(where: { $0.publicKey.isValidSignature(messageSignature, for: signedMessage) }) else {
            throw GooglePayTokenError(
                .messageSignatureInvalid,
                "the ECv1 message signature verifies with no configured root key for recipient \(recipientId.prefix(80)) "
                    + "(another root or recipient, or an altered signedMessage)",
                field: "signature"
            )
        }
        return nil
    }

    /// The intermediate key once a usable root's signature of it verifies, read and cached.
    private func verifiedIntermediateKey(
        _ token: GooglePaymentMethodToken,
        _ intermediate: GooglePaymentMethodToken.IntermediateSigningKey,
        cacheKey: IntermediateKeyCache.Key,
        usableRoots: [GoogleRootSigningKey]
    ) throws(GooglePayTokenError) -> IntermediateKeyCache.Entry {
        let signedKeyContent = SignedContent.intermediateKey(token, signedKey: intermediate.signedKey)
        var signingRoot: GoogleRootSigningKey?
        for (index, bytes) in intermediate.signatures.enumerated() where signingRoot == nil {
            let signature = try Self.signature(bytes, field: "intermediateSigningKey.signatures[\(index)]")
            signingRoot = usableRoots.first { $0.publicKey.isValidSignature(signature, for: signedKeyContent) }
        }
        guard let signingRoot else {
            throw GooglePayTokenError(
                .untrustedIntermediateKey,
                "no signature of the intermediate signing key verifies with a configured root key "
                    + "(signed under another root, e.g. the other environment's, or altered)",
                field: "intermediateSigningKey"
            )
        }
        let key = try SignedKey(intermediate.signedKey)
        let entry = IntermediateKeyCache.Entry(publicKey: key.publicKey, keyExpiration: key.expiration, rootExpiration: signingRoot.keyExpiration)
        intermediateKeys.store(entry, for: cacheKey)
        return entry
    }

    private func usableRoots(for token: GooglePaymentMethodToken, at now: Date) throws(GooglePayTokenError) -> [GoogleRootSigningKey] {
        let usable = roots.usable(for: token.protocolVersion, at: now)
        guard !usable.isEmpty else {
            throw GooglePayTokenError(
                .noUsableRootKey,
                "no configured root signing key is for \(token.protocolVersion.rawValue) and unexpired at \(now.formatted(.iso8601))"
            )
        }
        return usable
    }

    /// A DER ECDSA signature; DER only (minimal integers, nothing after), as swift-crypto reads it.
    private static func signature(_ der: [UInt8], field: String) throws(GooglePayTokenError) -> P256.Signing.ECDSASignature {
        guard let signature = DERSignature.ecdsaP256(der) else {
            throw GooglePayTokenError(.malformedToken, "\(field) is not a DER ECDSA signature", field: field)
        }
        return signature
    }
}
