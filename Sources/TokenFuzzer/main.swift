// Mutation fuzzing of the token library's parsers: the token JSON (and its base64), the CMS
// signature reader with the chain check behind it, and the decrypted payment data, seeded with the
// real Apple-signed conformance vectors and run for a bounded time (CI: .ci/run).
//
//   token-fuzz --vectors DIR [--seconds N] [--seed N]
//
// An in-process driver, not coverage-guided: structure-aware byte mutations (bit flips, boundary
// values, BER length and tag bytes, cut, repeated and spliced ranges) stacked one to four deep.
// What it checks besides "no crash": a mutated signature is never accepted, a mutated token
// that still verifies signs exactly the original's content, and a token whose signed bytes were
// moved across a field boundary (between data, transactionId and applicationData: the signature
// has no length framing, so it still verifies) either keeps the original's replay key or no
// longer decrypts. A finding prints the input (base64)
// and exits 1. The last line is `token-fuzz: executions=N findings=M ...`.

import ApplePayToken
import Foundation
import FuzzingSupport

struct Options {
    var vectors = ""
    var seconds = 30.0
    var seed: UInt64 = 2026

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--vectors": vectors = iterator.next() ?? ""
            case "--seconds": seconds = Double(iterator.next() ?? "") ?? seconds
            case "--seed": seed = UInt64(iterator.next() ?? "") ?? seed
            default: Self.usage()
            }
        }
        if vectors.isEmpty { Self.usage() }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: token-fuzz --vectors DIR [--seconds N] [--seed N]\n".utf8))
        exit(64)
    }
}

/// One real token, the decryptor that accepts it (clock at its signing time), and what it signs.
struct Seed {
    var name: String
    var json: [UInt8]
    var token: PaymentToken
    var decryptor: ApplePayTokenDecryptor
    var payloads: [[UInt8]]
    /// The merchant key, where the vector has one.
    var keyRing: MerchantKeyRing?

    static func load(_ directory: URL) throws -> [Seed] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.compactMap { name -> Seed? in
            let folder = directory.appendingPathComponent(name)
            guard let meta = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("meta.json"))) as? [String: Any],
                let files = meta["files"] as? [String: String], let tokenFile = files["token"],
                let signingTime = (meta["signingTime"] as? String).flatMap({ ISO8601DateFormatter().date(from: $0) })
            else { return nil }
            let json = Array(try Data(contentsOf: folder.appendingPathComponent(tokenFile)))
            let payloads = try files["expected"].map { [Array(try Data(contentsOf: folder.appendingPathComponent($0)))] } ?? []
            var keyRing: MerchantKeyRing?
            if let keyFile = files["privateKey"], let certificateFile = files["certificate"] {
                keyRing = MerchantKeyRing([
                    try MerchantIdentity(
                        certificate: KeyMaterial.certificate(from: Data(contentsOf: folder.appendingPathComponent(certificateFile))),
                        privateKey: KeyMaterial.privateKey(from: Data(contentsOf: folder.appendingPathComponent(keyFile)))
                    )
                ])
            }
            return Seed(
                name: name,
                json: json,
                token: try PaymentToken(jsonBytes: json),
                decryptor: ApplePayTokenDecryptor(trustRoots: .apple, clock: { signingTime }),
                payloads: payloads,
                keyRing: keyRing
            )
        }
    }
}

/// Byte mutations that reach past the first check: BER tags and lengths, boundary values,
/// ranges cut, repeated or taken from another input.
struct Mutator {
    var random: SplitMix64

    mutating func mutate(_ input: [UInt8], splicing other: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...Int.random(in: 0...3, using: &random) {
            guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &random)] }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes[at] = [0x00, 0x01, 0x7F, 0x80, 0x81, 0x82, 0x84, 0xFF, 0x30, 0x31, 0xA0][Int.random(in: 0..<11, using: &random)]
            case 3:
                // A BER length: after a tag-looking byte, a long-form or indefinite length.
                if at + 1 < bytes.count { bytes[at + 1] = [0x80, 0x81, 0x82, 0x83, 0x84, 0x00, 0x7F][Int.random(in: 0..<7, using: &random)] }
            case 4: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
            case 5:
                let range = at..<min(bytes.count, at + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[range], at: Int.random(in: 0...bytes.count, using: &random))
            case 6: bytes.removeSubrange(Int.random(in: 0...at, using: &random)...)
            case 7:
                let count = Int.random(in: 1...16, using: &random)
                bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            case 8:
                guard !other.isEmpty else { continue }
                let from = Int.random(in: 0..<other.count, using: &random)
                let piece = other[from..<min(other.count, from + Int.random(in: 1...256, using: &random))]
                bytes.replaceSubrange(at..<min(bytes.count, at + piece.count), with: piece)
            default: bytes.append(contentsOf: [0, 0, 0, 1].prefix(Int.random(in: 1...4, using: &random)))
            }
        }
        return bytes
    }
}

let options = Options(CommandLine.arguments)
let seeds = try Seed.load(URL(fileURLWithPath: options.vectors))
guard !seeds.isEmpty else {
    print("token-fuzz: no token vectors in \(options.vectors)")
    exit(1)
}
var mutator = Mutator(random: SplitMix64(state: options.seed))
var counts = (json: 0, signature: 0, paymentData: 0, accepted: 0, moved: 0, movedVerified: 0)
var findings = 0
let deadline = Date().addingTimeInterval(options.seconds)

@MainActor func finding(_ what: String, _ seed: Seed, _ input: [UInt8]) {
    findings += 1
    print("FINDING (\(seed.name)): \(what): \(Data(input).base64EncodedString())")
}

while Date() < deadline {
    for _ in 0..<64 {
        let seed = seeds[Int.random(in: 0..<seeds.count, using: &mutator.random)]
        let other = seeds[Int.random(in: 0..<seeds.count, using: &mutator.random)]
        switch Int.random(in: 0..<4, using: &mutator.random) {
        case 0:
            // The token JSON: parsed, and verified when it parses.
            counts.json += 1
            let input = mutator.mutate(seed.json, splicing: other.json)
            guard let token = try? PaymentToken(jsonBytes: input) else { continue }
            if (try? await seed.decryptor.verifySignature(of: token)) != nil {
                counts.accepted += 1
                let same =
                    token.signature == seed.token.signature && token.data == seed.token.data
                    && token.header.keyExchange == seed.token.header.keyExchange
                    && token.header.transactionIdBytes == seed.token.header.transactionIdBytes
                    && token.header.applicationData == seed.token.header.applicationData
                if !same { finding("a token with altered signed content verified", seed, input) }
            }
        case 1:
            // The CMS signature behind a valid token: any change must be refused.
            counts.signature += 1
            var token = seed.token
            token.signature = mutator.mutate(seed.token.signature, splicing: other.token.signature)
            if token.signature != seed.token.signature, (try? await seed.decryptor.verifySignature(of: token)) != nil {
                finding("an altered signature verified", seed, token.signature)
            }
        case 3:
            // Signed bytes moved across a field boundary: the signature still verifies.
            counts.moved += 1
            let moved = mutator.moveAcrossBoundary(seed.token)
            guard (try? await seed.decryptor.verifySignature(of: moved)) != nil else { continue }
            counts.movedVerified += 1
            if moved.replayKey == seed.token.replayKey { continue }
            // Another replay key means `data` was cut or extended: its GCM tag must now fail.
            if let keyRing = seed.keyRing, (try? await seed.decryptor.decrypt(moved, using: keyRing)) != nil {
                finding("a token with bytes moved out of data decrypted under a new replay key", seed, moved.data)
            }
        default:
            // The decrypted payment data: any outcome but a crash is fine.
            guard let payload = seed.payloads.first ?? other.payloads.first else { continue }
            counts.paymentData += 1
            _ = try? PaymentData(jsonBytes: mutator.mutate(payload, splicing: other.json))
        }
    }
}
let executions = counts.json + counts.signature + counts.paymentData + counts.moved
print(
    "token-fuzz: executions=\(executions) findings=\(findings) json=\(counts.json) signature=\(counts.signature) "
        + "paymentData=\(counts.paymentData) stillValid=\(counts.accepted) moved=\(counts.moved) "
        + "movedVerified=\(counts.movedVerified) seeds=\(seeds.count) seconds=\(Int(options.seconds))"
)
exit(findings == 0 ? 0 : 1)
