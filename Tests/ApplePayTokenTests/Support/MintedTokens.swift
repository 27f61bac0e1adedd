import ApplePayToken
import BlockingWork
import Foundation
import WireJSON
import X509

/// Tokens minted by `Minting/mint_tokens.py` (Python `cryptography`, independent of this
/// library), once per test run, into a temporary directory.
struct MintedTokens: Sendable {
    let directory: URL
    let merchantIdentifier: String
    let tokens: [String: [String: String]]

    static func shared() async throws -> MintedTokens { try await minting.value }

    /// Minted on a thread of its own: the script takes seconds, and suites that waited for it
    /// on Swift's cooperative threads (two on a 2-core machine) stalled every other test in the
    /// run, the PostgreSQL ones past their store deadline.
    private static let minting = Task {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try MintedTokens.mint() }) }
        }
    }

    private static func mint() throws -> MintedTokens {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("applepay-minted-\(UUID().uuidString)")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/ApplePayTokenTests/Minting/mint_tokens.py")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
            throw FixtureError(description: "mint_tokens.py failed: \(message)")
        }
        guard let manifest = try Fixtures.json(directory.appendingPathComponent("manifest.json")) as? [String: Any],
            let identifier = manifest["merchantIdentifier"] as? String,
            let tokens = manifest["tokens"] as? [String: [String: String]]
        else { throw FixtureError(description: "mint_tokens.py wrote no usable manifest") }
        return MintedTokens(directory: directory, merchantIdentifier: identifier, tokens: tokens)
    }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes(url(name)) }

    func fact(_ token: String, _ key: String) throws -> String {
        guard let value = tokens[token]?[key] else { throw FixtureError(description: "no \(key) for \(token)") }
        return value
    }

    func token(_ name: String) throws -> PaymentToken {
        try PaymentToken(parsing: Fixtures.text(url(try fact(name, "token"))))
    }

    func tokenText(_ name: String) throws -> String {
        try Fixtures.text(url(try fact(name, "token")))
    }

    func expected(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes(try fact(name, "expected"))))
    }

    func certificate(_ name: String) throws -> Certificate {
        try KeyMaterial.certificate(from: bytes(name))
    }

    /// The test roots (EC leaf chain and RSA leaf chain) on top of Apple's.
    func trustRoots(adding extra: [String] = []) throws -> TrustRoots {
        TrustRoots.apple.adding(try (["root.pem", "root-rsa-leaf.pem"] + extra).map(certificate))
    }

    /// The merchant's EC and RSA payment processing identities.
    func keyRing() throws -> MerchantKeyRing {
        MerchantKeyRing([
            try MerchantIdentity(
                certificate: certificate("merchant-ec-cert.pem"),
                privateKey: KeyMaterial.privateKey(from: bytes("merchant-ec-key-pkcs8.pem"))
            ),
            try MerchantIdentity(
                certificate: certificate("merchant-rsa-cert.pem"),
                privateKey: KeyMaterial.privateKey(from: bytes("merchant-rsa-key-pkcs1.pem"))
            ),
        ])
    }

    func decryptor(offset: TimeInterval = 0, extraRoots: [String] = [], newChainsPerSecond: Int? = nil) throws -> ApplePayTokenDecryptor {
        ApplePayTokenDecryptor(
            trustRoots: try trustRoots(adding: extraRoots),
            newChainsPerSecond: newChainsPerSecond,
            clock: { Date().addingTimeInterval(offset) }
        )
    }
}
