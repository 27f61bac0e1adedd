import BlockingWork
import Foundation
import GooglePayToken
import WireJSON

/// Tokens minted by `Minting/mint_google_pay.py` (Python `cryptography`, independent of this
/// library), once per test run, into a temporary directory.
struct PythonMintedTokens: Sendable {
    let directory: URL
    let recipientId: String
    let tokens: [String: [String: String]]

    static func shared() async throws -> PythonMintedTokens { try await minting.value }

    /// Minted on a thread of its own: the script takes a second or so, and must not hold one of
    /// Swift's cooperative threads while it runs.
    private static let minting = Task {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try PythonMintedTokens.mint() }) }
        }
    }

    private static func mint() throws -> PythonMintedTokens {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("googlepay-minted-\(UUID().uuidString)")
        let script = GooglePayFixtures.packageRoot.appendingPathComponent("Tests/GooglePayTokenTests/Minting/mint_google_pay.py")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
            throw MintingError(description: "mint_google_pay.py failed: \(message)")
        }
        let manifest = try JSONValue(parsing: Array(Data(contentsOf: directory.appendingPathComponent("manifest.json"))))
        guard case .string(let recipientId)? = manifest["recipientId"], case .object(let entries)? = manifest["tokens"] else {
            throw MintingError(description: "mint_google_pay.py wrote no usable manifest")
        }
        var tokens: [String: [String: String]] = [:]
        for (name, entry) in entries {
            guard case .string(let token)? = entry["token"], case .string(let expected)? = entry["expected"] else { continue }
            tokens[name] = ["token": token, "expected": expected]
        }
        return PythonMintedTokens(directory: directory, recipientId: recipientId, tokens: tokens)
    }

    func text(_ file: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.appendingPathComponent(file)), as: UTF8.self)
    }

    func file(_ token: String, _ key: String) throws -> String {
        guard let name = tokens[token]?[key] else { throw MintingError(description: "no \(key) for \(token)") }
        return name
    }

    func tokenText(_ name: String) throws -> String { try text(file(name, "token")) }

    func token(_ name: String) throws -> GooglePaymentMethodToken { try GooglePaymentMethodToken(parsing: tokenText(name)) }

    func expected(_ name: String) throws -> JSONValue { try JSONValue(parsing: Array(text(file(name, "expected")).utf8)) }

    func roots() throws -> GoogleRootSigningKeys { try GoogleRootSigningKeys(keysJSON: text("keys.json")) }

    /// Both merchant keys, the first one first.
    func recipient(keys: [Int] = [0, 1]) throws -> GooglePayRecipient {
        GooglePayRecipient(
            recipientId: recipientId,
            privateKeys: try keys.map { try GooglePayRecipient.privateKey(from: text("merchant-\($0).pem")) }
        )
    }

    func decryptor(at date: Date = Date()) throws -> GooglePayTokenDecryptor {
        GooglePayTokenDecryptor(rootKeys: try roots(), clock: { date })
    }
}

struct MintingError: Error, CustomStringConvertible {
    let description: String
}
