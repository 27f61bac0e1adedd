import Foundation
import Testing

/// `gateway applepay-identity` as a merchant's engineer runs it: a new key and CSR, the sandbox
/// standing in for Apple's portal, the certificate installed into a configuration, and a token
/// encrypted to the new key decrypted by the gateway.
@Suite("gateway applepay-identity")
struct ApplePayIdentityCommandTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
    let merchant = "merchant.com.example.shop"

    func gateway(_ arguments: [String]) throws -> Gateway.Result {
        try Gateway.run(arguments, directory: work, environment: ["PATH": "/usr/bin:/bin"])
    }

    func writeConfiguration() throws -> String {
        let path = work.appending(path: "gateway.json").path
        let text = """
            {"mode": "sandbox", "merchants": ["SHOP"],
             "merchant": {"SHOP": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}},
             "sandbox": {"authorityDirectory": "sandbox-authority"}, "store": {"url": "sqlite://gateway.sqlite"}}
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("new, sandbox-sign, install: the configured key decrypts a token minted for it")
    func wholeLoop() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = try writeConfiguration()

        let created = try gateway(["applepay-identity", "new", "--merchant", merchant, "--rsa"])
        #expect(created.status == 0, "\(created.stderr)")
        let directory = work.appending(path: "data/applepay/\(merchant)")
        for key in ["ec-key.pem", "rsa-key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appending(path: key).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(key)")
            #expect(!created.stdout.contains("PRIVATE KEY"), "the key must not be printed")
        }
        // OpenSSL, independently: each CSR is well formed and signed by its own key.
        for csr in ["ec.certSigningRequest", "rsa.certSigningRequest"] {
            let verified = try Self.openssl(["req", "-in", directory.appending(path: csr).path, "-noout", "-verify"])
            #expect(verified.status == 0, "\(csr): \(verified.stderr)")
        }
        let again = try gateway(["applepay-identity", "new", "--merchant", merchant])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))

        for kind in ["ec", "rsa"] {
            let signed = try gateway([
                "applepay-identity", "sandbox-sign", "--merchant", merchant, "--config", config,
                "--csr", directory.appending(path: "\(kind).certSigningRequest").path, "--output", "\(kind).cer",
            ])
            #expect(signed.status == 0, "\(signed.stderr)")
            let installed = try gateway([
                "applepay-identity", "install", "--merchant", merchant, "--certificate", "\(kind).cer",
                "--config", config, "--gateway-merchant", "SHOP",
            ])
            #expect(installed.status == 0, "\(installed.stderr)")
            #expect(installed.stdout.contains("configuration is valid"), "\(installed.stdout)")
        }
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        let applePay = ((written?["merchant"] as? [String: Any])?["SHOP"] as? [String: Any])?["applePay"] as? [String: Any]
        #expect(applePay?["identities"] as? [String] == ["ec", "rsa"])

        for version in ["EC_v1", "RSA_v1"] {
            let token = try gateway([
                "mint-token", "--config", config, "--merchant", "SHOP", "--amount", "56.56", "--currency", "USD", "--version", version,
            ])
            #expect(token.status == 0, "\(token.stderr)")
            let tokenFile = work.appending(path: "token-\(version).json")
            try token.stdout.write(to: tokenFile, atomically: true, encoding: .utf8)
            let kind = version == "EC_v1" ? "ec" : "rsa"
            let decrypted = try gateway([
                "decrypt", "--token", tokenFile.path, "--private-key", directory.appending(path: "\(kind)-key.pem").path,
                "--certificate", directory.appending(path: "\(kind)-certificate.pem").path,
                "--trust-root", "sandbox-authority/root.pem",
            ])
            #expect(decrypted.status == 0, "\(version): \(decrypted.stderr)")
            #expect(decrypted.stdout.contains("\"transactionAmount\" : 5656"), "\(decrypted.stdout)")

            let untrusted = try gateway([
                "decrypt", "--token", tokenFile.path, "--private-key", directory.appending(path: "\(kind)-key.pem").path,
                "--certificate", directory.appending(path: "\(kind)-certificate.pem").path,
            ])
            #expect(untrusted.status == 1)
            #expect(untrusted.stderr.contains("UNTRUSTED_CHAIN"))
            #expect(untrusted.stderr.contains("Apple Root CA - G3") && untrusted.stderr.contains("--trust-root"), "\(untrusted.stderr)")
            // One line, naming the root the chain ends at, with the sandbox hint because it is a sandbox root.
            #expect(untrusted.stderr.split(separator: "\n").count == 1, "\(untrusted.stderr)")
            #expect(untrusted.stderr.contains("'Apple Pay Gateway Sandbox Root CA', which is not a configured trust root"))
            #expect(untrusted.stderr.contains("This is a sandbox token"))
        }
    }

    @Test("install refuses a certificate for another merchant identifier or for a key not made here")
    func installRefusals() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = try writeConfiguration()
        #expect(try gateway(["applepay-identity", "new", "--merchant", merchant]).status == 0)
        let csr = work.appending(path: "data/applepay/\(merchant)/ec.certSigningRequest").path

        let other = try gateway([
            "applepay-identity", "sandbox-sign", "--merchant", "merchant.com.other", "--csr", csr, "--config", config,
            "--output", "other.cer",
        ])
        #expect(other.status == 0, "\(other.stderr)")
        let wrongMerchant = try gateway(["applepay-identity", "install", "--merchant", merchant, "--certificate", "other.cer"])
        #expect(wrongMerchant.status == 1)
        #expect(wrongMerchant.stderr.contains("another merchant identifier"), "\(wrongMerchant.stderr)")

        // A second directory's key: the certificate matches none of the first directory's keys.
        #expect(try gateway(["applepay-identity", "new", "--merchant", merchant, "--directory", "elsewhere"]).status == 0)
        let foreign = try gateway([
            "applepay-identity", "sandbox-sign", "--merchant", merchant, "--directory", "elsewhere", "--config", config,
            "--output", "foreign.cer",
        ])
        #expect(foreign.status == 0, "\(foreign.stderr)")
        let unmatched = try gateway(["applepay-identity", "install", "--merchant", merchant, "--certificate", "foreign.cer"])
        #expect(unmatched.status == 1)
        #expect(unmatched.stderr.contains("matches none of the keys"), "\(unmatched.stderr)")

        let notAMerchantIdentifier = try gateway(["applepay-identity", "new", "--merchant", "../etc"])
        #expect(notAMerchantIdentifier.status == 1)
        #expect(notAMerchantIdentifier.stderr.contains("merchant.com.example"))
    }

    @Test("sandbox-sign refuses in production mode")
    func productionRefuses() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = work.appending(path: "production.json").path
        try #"{"mode": "production", "merchants": ["SHOP"], "merchant": {"SHOP": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try gateway(["applepay-identity", "new", "--merchant", merchant]).status == 0)
        let refused = try gateway(["applepay-identity", "sandbox-sign", "--merchant", merchant, "--config", config])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("only Apple signs"))
    }

    static func openssl(_ arguments: [String]) throws -> Gateway.Result {
        try Gateway.run(["openssl"] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
    }
}
