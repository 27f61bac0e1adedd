import Crypto
import Foundation

/// Google's signature checks: the intermediate key against the roots, its expiration, and the
/// message signature for the recipient (ECv1: the message signature against the roots).
struct TokenSignatureVerifier {
    let roots: GoogleRootSigningKeys

    /// Verifies `token` for `recipientId` at `now`; returns the intermediate key's expiration, if any.
    func verify(_ token: GooglePaymentMethodToken, recipientId: String, now: Date) throws(GooglePayTokenError) -> Date? {
        let usableRoots = roots.usable(for: token.protocolVersion, at: now)
        guard !usableRoots.isEmpty else {
            throw GooglePayTokenError(
                .noUsableRootKey,
                "no configured root signing key is for \(token.protocolVersion.rawValue) and unexpired at \(now.formatted(.iso8601))"
            )
        }
        let messageSignature = try Self.signature(token.signature, field: "signature")
        let signedMessage = SignedContent.message(token, recipientId: recipientId)

        guard let intermediate = token.intermediateSigningKey else {
            // ECv1: a root key signs the message itself.
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

        let signedKeyContent = SignedContent.intermediateKey(token, signedKey: intermediate.signedKey)
        var trusted = false
        for (index, bytes) in intermediate.signatures.enumerated() where !trusted {
            let signature = try Self.signature(bytes, field: "intermediateSigningKey.signatures[\(index)]")
            trusted = usableRoots.contains { $0.publicKey.isValidSignature(signature, for: signedKeyContent) }
        }
        guard trusted else {
            throw GooglePayTokenError(
                .untrustedIntermediateKey,
                "no signature of the intermediate signing key verifies with a configured root key "
                    + "(signed under another root, e.g. the other environment's, or altered)",
                field: "intermediateSigningKey"
            )
        }
        let key = try SignedKey(intermediate.signedKey)
        guard now < key.expiration else {
            throw GooglePayTokenError(
                .intermediateKeyExpired,
                "the intermediate signing key expired at \(key.expiration.formatted(.iso8601)); it is \(now.formatted(.iso8601))",
                field: "intermediateSigningKey.signedKey"
            )
        }
        guard key.publicKey.isValidSignature(messageSignature, for: signedMessage) else {
            throw GooglePayTokenError(
                .messageSignatureInvalid,
                "the message signature does not verify for recipient \(recipientId.prefix(80)) "
                    + "(a token for another recipient, or an altered signedMessage or signature)",
                field: "signature"
            )
        }
        return key.expiration
    }

    /// A DER ECDSA signature; swift-crypto's reader takes DER only (minimal integers, nothing after).
    private static func signature(_ der: [UInt8], field: String) throws(GooglePayTokenError) -> P256.Signing.ECDSASignature {
        do {
            return try P256.Signing.ECDSASignature(derRepresentation: der)
        } catch {
            throw GooglePayTokenError(.malformedToken, "\(field) is not a DER ECDSA signature", field: field)
        }
    }
}
