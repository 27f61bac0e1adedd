import Crypto
import Foundation
import GooglePaySandbox
import GooglePayToken

/// Warm ECv2 verify+decrypt next to swift-crypto's P-256 operations a token needs, all in this
/// process on this core (BENCH_ONLY=ecv2). The cases take turns in short slices, so a change in
/// the machine's speed mid-run affects them all alike.
///
/// A warm ECv2 token with its intermediate key's verdict cached costs one ECDSA verification (the
/// message signature) and one ECDH; without the cache, one more verification (the root's signature
/// of the intermediate key). `ecv2_limit_tps` is the first, `ecv2_uncached_limit_tps` the second.
enum GooglePayBench {
    static func measureAll(seconds: Double, warmOnly: Bool = false) throws -> [String] {
        let now = Date()
        let root = GooglePaySandboxRoot()
        let minter = GooglePayTokenMinter(root: root)
        let recipientKey = P256.KeyAgreement.PrivateKey()
        let recipient = GooglePayRecipient.gateway("bench", privateKeys: [recipientKey])
        var request = GooglePayMintRequest()
        request.authMethod = .cryptogram3DS
        request.pan = "4895370012003478"
        request.cryptogram = "AgAAAAAABk4DWZ4C28yUQAAAAAA="
        request.eciIndicator = "07"
        request.gatewayMerchantId = "TESTMERCHANT"
        let tokenText = try minter.mint(request, recipientId: recipient.recipientId, recipientPublicKey: recipientKey.publicKey)
        let token = try GooglePaymentMethodToken(parsing: tokenText)
        let warm = GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys, clock: { now })
        _ = try warm.decrypt(token, for: recipient)  // fails loudly here rather than in the loop

        // The primitives, over inputs the size of the token's: the message signature covers the
        // signed message and about 40 bytes of sender, recipient and version.
        let signer = P256.Signing.PrivateKey()
        let signedBytes = [UInt8](repeating: 0x42, count: token.signedMessage.utf8.count + 40)
        let signature = try signer.signature(for: signedBytes)
        // Taken once: `publicKey` makes a new key object at each call, which a verification does not need.
        let verifyingKey = signer.publicKey
        let ephemeral = P256.KeyAgreement.PrivateKey().publicKey
        let ephemeralPoint = ephemeral.x963Representation
        let plaintext = try warm.unseal(token, for: recipient).plaintext

        if warmOnly {  // for profiling
            let micros = try interleaved([{ _ = try warm.decrypt(token, for: recipient) }], seconds: seconds)
            return [String(format: "ecv2_warm_tps=%.1f", 1e6 / micros[0])]
        }
        let cases: [(String, () throws -> Void)] = [
            ("ecv2_warm", { _ = try warm.decrypt(token, for: recipient) }),
            ("ecv2_parse_and_warm", { _ = try warm.decrypt(GooglePaymentMethodToken(parsing: tokenText), for: recipient) }),
            ("ecv2_cold", { _ = try GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys, clock: { now }).decrypt(token, for: recipient) }),
            ("swiftcrypto_ecdsa_p256_verify", { _ = verifyingKey.isValidSignature(signature, for: signedBytes) }),
            ("swiftcrypto_ecdh_p256", { _ = try recipientKey.sharedSecretFromKeyAgreement(with: ephemeral) }),
            // Stages: where a warm token's time beyond the two operations goes (verify_signatures
            // is one ECDSA verification and the rest; unseal adds the ECDH, the KEM and the
            // envelope; decrypt adds message_json).
            ("stage_verify_signatures", { _ = try warm.verifySignatures(of: token, recipientId: recipient.recipientId) }),
            ("stage_unseal", { _ = try warm.unseal(token, for: recipient) }),
            ("stage_message_json", { _ = try GooglePayMessage(jsonBytes: plaintext) }),
            ("stage_swiftcrypto_p256_x963", { _ = try P256.KeyAgreement.PublicKey(x963Representation: ephemeralPoint) }),
        ]
        let micros = try interleaved(cases.map(\.1), seconds: seconds)
        var rates: [String: Double] = [:]
        for (index, (name, _)) in cases.enumerated() { rates[name] = 1e6 / micros[index] }
        let verify = rates["swiftcrypto_ecdsa_p256_verify"] ?? 0
        let ecdh = rates["swiftcrypto_ecdh_p256"] ?? 0
        let limit = 1 / (1 / verify + 1 / ecdh)
        let uncachedLimit = 1 / (2 / verify + 1 / ecdh)
        let figures = cases.indices.map { index in
            let name = cases[index].0
            return name.hasPrefix("stage_")
                ? String(format: "%@_us=%.1f", name, micros[index]) : String(format: "%@_tps=%.1f", name, rates[name] ?? 0)
        }
        return figures + [
            String(format: "ecv2_limit_tps=%.1f", limit),
            String(format: "ecv2_uncached_limit_tps=%.1f", uncachedLimit),
        ]
    }

    /// Microseconds per call of each body: they take turns in slices of 5 calls for about
    /// `seconds`, and each body's figure is its median slice, so a slice another process
    /// interrupted (this machine is shared) counts for none of them.
    private static func interleaved(_ bodies: [() throws -> Void], seconds: Double) throws -> [Double] {
        let callsPerSlice = 5
        for body in bodies { for _ in 0..<25 { try body() } }  // warm up
        let clock = ContinuousClock()
        var slices = [[Duration]](repeating: [], count: bodies.count)
        let start = clock.now
        while start.duration(to: clock.now) < .seconds(seconds) {
            for (index, body) in bodies.enumerated() {
                let sliceStart = clock.now
                for _ in 0..<callsPerSlice { try body() }
                slices[index].append(sliceStart.duration(to: clock.now))
            }
        }
        return slices.map { durations in
            let median = durations.sorted()[durations.count / 2]
            let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
            return seconds * 1e6 / Double(callsPerSlice)
        }
    }
}
