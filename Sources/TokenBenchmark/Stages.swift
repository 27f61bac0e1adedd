import ApplePayToken
import Crypto
import Foundation

/// Microseconds per call of each stage of a warm EC_v1 token next to swift-crypto's two P-256
/// operations, to show where time beyond them goes (BENCH_ONLY=stages). The stages take turns in
/// slices of 25 calls, so a change in the machine's speed mid-run affects them all alike.
/// `signature` is step 1 (CMS reading, digest, cache lookup, ECDSA verification); decrypt minus
/// signature is key selection, ECDH, the KDF, AES-GCM and the payment data's JSON.
enum Stages {
    static func measureAll(_ benchCase: Case, plaintext: [UInt8], seconds: Double) async throws -> [String] {
        let signingTime = benchCase.signingTime
        let decryptor = ApplePayTokenDecryptor(clock: { signingTime })
        let token = benchCase.token
        let key = SymmetricKey(size: .bits256)
        let sealed = try AES.GCM.seal(plaintext, using: key, nonce: try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 16)))
        let data = Array(sealed.ciphertext) + Array(sealed.tag)
        let merchant = P256.KeyAgreement.PrivateKey()
        let ephemeral = P256.KeyAgreement.PrivateKey().publicKey
        let signer = P256.Signing.PrivateKey()
        let message = [UInt8](repeating: 0x42, count: 200)
        let signature = try signer.signature(for: message)
        let ephemeralX963 = ephemeral.x963Representation
        let sharedSecret = try merchant.sharedSecretFromKeyAgreement(with: ephemeral)
        let partyV = [UInt8](repeating: 7, count: 32)

        let stages: [(String, () async throws -> Void)] = [
            ("decrypt", { _ = try await decryptor.decrypt(token, using: benchCase.keyRing) }),
            ("signature", { _ = try await decryptor.verifySignature(of: token) }),
            ("aes_gcm", { _ = try PaymentDataCipher.open(data, using: key) }),
            ("payment_data_json", { _ = try PaymentData(jsonBytes: plaintext) }),
            ("replay_key", { _ = token.replayKey }),
            ("kdf", { _ = sharedSecret.withUnsafeBytes { AppleKDF.symmetricKey(sharedSecret: $0, merchantIdentifierHash: partyV) } }),
            ("swiftcrypto_p256_x963", { _ = try P256.KeyAgreement.PublicKey(x963Representation: ephemeralX963) }),
            ("swiftcrypto_ecdh", { _ = try merchant.sharedSecretFromKeyAgreement(with: ephemeral) }),
            ("swiftcrypto_ecdsa_verify", { _ = signer.publicKey.isValidSignature(signature, for: message) }),
        ]
        let clock = ContinuousClock()
        var spent = [Duration](repeating: .zero, count: stages.count)
        var calls = [Int](repeating: 0, count: stages.count)
        let start = clock.now
        while start.duration(to: clock.now) < .seconds(seconds) {
            for (index, stage) in stages.enumerated() {
                let sliceStart = clock.now
                for _ in 0..<25 { try await stage.1() }
                spent[index] += sliceStart.duration(to: clock.now)
                calls[index] += 25
            }
        }
        return stages.indices.map { index in
            let micros = Double(spent[index].components.attoseconds) / 1e12 + Double(spent[index].components.seconds) * 1e6
            return String(format: "%@_us=%.1f", stages[index].0, micros / Double(calls[index]))
        }
    }
}
