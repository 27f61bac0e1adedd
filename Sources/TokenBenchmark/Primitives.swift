import Crypto
import Foundation
import _CryptoExtras

/// The primitives a token needs beyond the two P-256 operations, through swift-crypto
/// (BoringSSL), for comparison with `openssl speed`. ECDH and ECDSA verification are timed with the
/// token's stages (Stages.swift), interleaved with them.
enum Primitives {
    static func measureAll(seconds: Double) async throws -> [String] {
        let ephemeralDER = P256.KeyAgreement.PrivateKey().publicKey.derRepresentation
        let rsa = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let wrapped = try rsa.publicKey.encrypt([UInt8](repeating: 7, count: 16), padding: .PKCS1_OAEP_SHA256)

        let parse = try await measure(seconds: seconds) { _ = try P256.KeyAgreement.PublicKey(derRepresentation: ephemeralDER) }
        let unwrap = try await measure(seconds: seconds) { _ = try rsa.decrypt(wrapped, padding: .PKCS1_OAEP_SHA256) }
        return [
            String(format: "swiftcrypto_p256_parse_tps=%.0f", parse),
            String(format: "swiftcrypto_rsa_oaep_decrypt_tps=%.0f", unwrap),
        ]
    }
}
