import ApplePayToken
import Foundation

// Tokens per second for verify + decrypt of real vectors, warm (chain verdict cached) and cold
// (a new decryptor, so the chain is verified again). scripts/bench-token runs it on one core next
// to `openssl speed` and prints the ratios.
//
// Usage: token-bench [CONFORMANCE_DIR] [SECONDS_PER_CASE]

let arguments = CommandLine.arguments
let conformance = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "Tests/ApplePayTokenTests/Fixtures/conformance")
let secondsPerCase = arguments.count > 2 ? Double(arguments[2]) ?? 2 : 2

struct Case {
    let label: String
    let token: PaymentToken
    let keyRing: MerchantKeyRing
    let signingTime: Date
}

func loadCase(_ label: String, vector: String) throws -> Case {
    let directory = conformance.appendingPathComponent("vectors/\(vector)")
    func bytes(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }
    let meta = try JSONSerialization.jsonObject(with: bytes("meta.json")) as? [String: Any]
    guard let time = meta?["signingTime"] as? String, let signingTime = ISO8601DateFormatter().date(from: time) else {
        throw CocoaError(.fileReadCorruptFile)
    }
    let identity = try MerchantIdentity(
        certificate: KeyMaterial.certificate(from: bytes("certificate.pem")),
        privateKey: KeyMaterial.privateKey(from: bytes("private_key.pem"))
    )
    return Case(
        label: label,
        token: try PaymentToken(parsing: String(decoding: try bytes("token.json"), as: UTF8.self)),
        keyRing: MerchantKeyRing([identity]),
        signingTime: signingTime
    )
}

/// Runs `body` repeatedly for about `seconds` and returns operations per second. It runs on the
/// caller's executor (the main actor here), like `decrypt`: a plain `async` function would run on
/// the global pool and hop back to the main actor for each call of `body`, two thread wake-ups
/// per token that the library does not cost.
nonisolated(nonsending) func measure(seconds: Double, _ body: () async throws -> Void) async rethrows -> Double {
    for _ in 0..<20 { try await body() }  // warm up
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    while true {
        for _ in 0..<20 { try await body() }
        count += 20
        let elapsed = start.duration(to: clock.now)
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if secondsElapsed >= seconds { return Double(count) / secondsElapsed }
    }
}

// BENCH_ONLY=ec or rsa narrows the run to one case's warm rate (for profiling, and for
// scripts/bench-http's baseline measured right beside its AUTHORIZE run); cold gives only the cold
// rates and the primitives (scripts/bench-token measures the warm ones in its rounds); stages
// times each stage of a warm EC_v1 token; ecv2 times a warm Google Pay ECv2 token beside
// swift-crypto's P-256 operations (ecv2-warm: the warm token alone, for profiling).
let only = ProcessInfo.processInfo.environment["BENCH_ONLY"]
if only == "ecv2" || only == "ecv2-warm" {
    print(try GooglePayBench.measureAll(seconds: secondsPerCase, warmOnly: only == "ecv2-warm").joined(separator: " "))
    exit(0)
}
let ecCase = try loadCase("ec", vector: "gala-2021")
if only == "stages" {
    let plaintext = try Data(contentsOf: conformance.appendingPathComponent("vectors/gala-2021/decrypted.json"))
    let tokenText = try String(contentsOf: conformance.appendingPathComponent("vectors/gala-2021/token.json"), encoding: .utf8)
    print(try await Stages.measureAll(ecCase, tokenText: tokenText, plaintext: Array(plaintext), seconds: secondsPerCase).joined(separator: " "))
    exit(0)
}
let coldOnly = only == "cold"
let cases = [ecCase, try loadCase("rsa", vector: "basistheory-rsa")]
    .filter { only == nil || coldOnly || $0.label == only }
var results: [String] = []
for benchCase in cases {
    let signingTime = benchCase.signingTime
    if !coldOnly {
        let warm = ApplePayTokenDecryptor(clock: { signingTime })
        let warmRate = try await measure(seconds: secondsPerCase) {
            _ = try await warm.decrypt(benchCase.token, using: benchCase.keyRing)
        }
        results.append(String(format: "%@_warm_tps=%.1f", benchCase.label, warmRate))
    }
    if only == nil || coldOnly {
        let coldRate = try await measure(seconds: secondsPerCase) {
            let cold = ApplePayTokenDecryptor(clock: { signingTime })
            _ = try await cold.decrypt(benchCase.token, using: benchCase.keyRing)
        }
        results.append(String(format: "%@_cold_tps=%.1f", benchCase.label, coldRate))
    }
}
if only == nil || coldOnly { results += try await Primitives.measureAll(seconds: secondsPerCase / 2) }
print(results.joined(separator: " "))
