import ApplePayToken
import Crypto
import Foundation
import WireJSON

/// Microseconds per call of each stage of a warm EC_v1 token next to swift-crypto's two P-256
/// operations, to show where time beyond them goes (BENCH_ONLY=stages). The stages take turns in
/// slices of 25 calls, so a change in the machine's speed mid-run affects them all alike.
/// `signature` is step 1 (CMS reading, digest, cache lookup, ECDSA verification); decrypt minus
/// signature is key selection, ECDH, the KDF, AES-GCM and the payment data's JSON.
///
/// Three stages time what a token AUTHORIZE does beyond a plain-card one that `decrypt` leaves
/// out (issue 66's token_additive_ratio): `token_parse` reads the token's text (JSON, base64,
/// hex) into a `PaymentToken`, and `token_request_json` and `card_request_json` read a token
/// AUTHORIZE's body, with the token as the string clients send, and a card AUTHORIZE's.
enum Stages {
    static func measureAll(_ benchCase: Case, tokenText: String, plaintext: [UInt8], seconds: Double) async throws -> [String] {
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
        let tokenRequest = authorizeBody(card: ["devicePayment": .object(["paymentToken": .string(tokenText)])], wallet: true)
        let cardRequest = authorizeBody(
            card: ["number": .string("5123450000000008"), "expiry": .object(["month": .string("1"), "year": .string("39")])],
            wallet: false
        )

        let stages: [(String, () async throws -> Void)] = [
            ("decrypt", { _ = try await decryptor.decrypt(token, using: benchCase.keyRing) }),
            ("signature", { _ = try await decryptor.verifySignature(of: token) }),
            ("aes_gcm", { _ = try PaymentDataCipher.open(data, using: key) }),
            ("payment_data_json", { _ = try PaymentData(jsonBytes: plaintext) }),
            ("replay_key", { _ = token.replayKey }),
            ("token_parse", { _ = try PaymentToken(parsing: tokenText) }),
            ("token_request_json", { _ = try JSONValue(parsing: tokenRequest) }),
            ("card_request_json", { _ = try JSONValue(parsing: cardRequest) }),
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

    /// An AUTHORIZE body shaped as scripts/bench-http sends it: a token one as http-bench-tokens
    /// writes it (wallet provider and transaction source), a card one as its card.txt.
    private static func authorizeBody(card: [String: JSONValue], wallet: Bool) -> [UInt8] {
        var order: [String: JSONValue] = ["amount": .string("56.56"), "currency": .string("USD")]
        var body: [String: JSONValue] = [
            "apiOperation": .string("AUTHORIZE"),
            "sourceOfFunds": .object(["type": .string("CARD"), "provided": .object(["card": .object(card)])]),
        ]
        if wallet {
            order["walletProvider"] = .string("APPLE_PAY")
            body["transaction"] = .object(["source": .string("INTERNET")])
        }
        body["order"] = .object(order)
        return JSONValue.object(body).serialized()
    }
}
