import Crypto
import _CryptoExtras

/// Step 3: restores the AES key from the token's key exchange value and the merchant's key.
enum SymmetricKeyRestorer {
    static func restore(
        _ token: PaymentToken,
        with identity: MerchantIdentity
    ) throws(ApplePayTokenError)
        -> SymmetricKey
    {
        switch (token.header.keyExchange, identity.privateKey) {
        case (.ephemeralPublicKey(let ephemeral), .ec(let privateKey)):
            let publicKey: P256.KeyAgreement.PublicKey
            do {
                publicKey = try P256SubjectPublicKeyInfo.keyAgreementKey(ephemeral)
            } catch {
                throw ApplePayTokenError(
                    .decryptionFailed,
                    "header.ephemeralPublicKey is not a P-256 public key",
                    field: "header.ephemeralPublicKey"
                )
            }
            let sharedSecret: SharedSecret
            do {
                sharedSecret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
            } catch {
                throw ApplePayTokenError(.decryptionFailed, "ECDH with the ephemeral public key failed")
            }
            return sharedSecret.withUnsafeBytes { z in
                AppleKDF.symmetricKey(sharedSecret: z, merchantIdentifierHash: identity.merchantIdentifierHash)
            }
        case (.wrappedKey(let wrapped), .rsa(let privateKey)):
            // RSA-OAEP output is exactly the modulus length; OpenSSL would also take a shorter input.
            let modulusBytes = privateKey.keySizeInBits / 8
            guard wrapped.count == modulusBytes else {
                throw ApplePayTokenError(
                    .malformedToken,
                    "header.wrappedKey is \(wrapped.count) bytes, not the \(modulusBytes) bytes of an RSA-OAEP block for this key",
                    field: "header.wrappedKey"
                )
            }
            guard let unwrapped = unwrap(wrapped, with: identity.openSSLRSAKey, or: privateKey) else {
                throw ApplePayTokenError(
                    .decryptionFailed,
                    "header.wrappedKey does not unwrap with RSA-OAEP SHA-256",
                    field: "header.wrappedKey"
                )
            }
            guard unwrapped.count == 16 else {
                throw ApplePayTokenError(
                    .decryptionFailed,
                    "the unwrapped key is \(unwrapped.count) bytes, not an AES-128 key",
                    field: "header.wrappedKey"
                )
            }
            return SymmetricKey(data: unwrapped)
        case (.ephemeralPublicKey, .rsa), (.wrappedKey, .ec):
            throw ApplePayTokenError(
                .decryptionFailed,
                "the key matching publicKeyHash is not of the kind a \(token.version.rawValue) token needs"
            )
        }
    }

    /// RSA-OAEP SHA-256 through OpenSSL when it holds the key (twice as fast where the CPU has
    /// AVX-512 IFMA), through swift-crypto otherwise.
    static func unwrap(
        _ wrapped: [UInt8],
        with openSSLKey: OpenSSLRSAKey?,
        or key: _RSA.Encryption.PrivateKey
    )
        -> [UInt8]?
    {
        if let openSSLKey { return openSSLKey.decryptOAEPSHA256(wrapped) }
        return (try? key.decrypt(wrapped, padding: .PKCS1_OAEP_SHA256)).map(Array.init)
    }
}
