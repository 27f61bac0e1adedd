import Crypto
import Foundation
import _CryptoExtras

/// The primitives a warm token needs, through swift-crypto (BoringSSL), for comparison with
/// `openssl speed`: shows how much of any gap is the library and how much the primitive.
enum Primitives {
    static func measureAll(seconds: Double) async throws -> [String] {
        let merchant = P256.KeyAgreement.PrivateKey()
        let ephemeral = P256.KeyAgreement.PrivateKey().publicKey
        let ephemeralDER = ephemeral.derRepresentation
        let signer = P256.Signing.PrivateKey()
        let message = [UInt8](repeating: 0x42, count: 200)
        let signature = try signer.signature(for: message)
        let rsa = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let wrapped = try rsa.publicKey.encrypt([UInt8](repeating: 7, count: 16), padding: .PKCS1_OAEP_SHA256)

        let ecdh = try await measure(seconds: seconds) { _ = try merchant.sharedSecretFromKeyAgreement(with: ephemeral) }
        let parse = try await measure(seconds: seconds) { _ = try P256.KeyAgreement.PublicKey(derRepresentation: ephemeralDER) }
        let verify = await measure(seconds: seconds) { _ = signer.publicKey.isValidSignature(signature, for: message) }
        let unwrap = try await measure(seconds: seconds) { _ = try rsa.decrypt(wrapped, padding: .PKCS1_OAEP_SHA256) }
        return [
            String(format: "swiftcrypto_ecdh_tps=%.0f", ecdh),
            String(format: "swiftcrypto_p256_parse_tps=%.0f", parse),
            String(format: "swiftcrypto_ecdsa_verify_tps=%.0f", verify),
            String(format: "swiftcrypto_rsa_oaep_decrypt_tps=%.0f", unwrap),
        ]
    }
}
