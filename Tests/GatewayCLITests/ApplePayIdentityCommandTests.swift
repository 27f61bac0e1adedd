import BlockingWork
import Foundation
import Testing

/// `gateway applepay-identity` as a merchant's engineer runs it: a new key and CSR, the sandbox
/// standing in for Apple's portal, the certificate installed into a configuration, and a token
/// encrypted to the new key decrypted by the gateway.
@Suite("gateway applepay-identity", .blocksThreads)
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

    @Test("rotation as the guide writes it: a second identity beside the first, both configured, the file loads")
    func rotation() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = try writeConfiguration()
        let directory = work.appending(path: "data/applepay/\(merchant)")
        for round in 1...2 {
            let created = try gateway(["applepay-identity", "new", "--merchant", merchant])
            #expect(created.status == 0, "\(created.stderr)")
            let label = round == 1 ? "ec" : "ec-2"
            #expect(created.stdout.contains("private key '\(label)'"), "\(created.stdout)")
            // The hint's commands are complete: run them as printed (the placeholder filled in).
            let commands = created.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("gateway applepay-identity") }
            #expect(commands.count == 2, "\(created.stdout)")
            for command in commands.reversed() {
                let arguments = command.replacingOccurrences(of: "YOUR_MERCHANT_ID", with: "SHOP").split(separator: " ").dropFirst()
                let ran = try gateway(arguments.map(String.init))
                #expect(ran.status == 0, "\(command): \(ran.stderr)")
                if command.contains(" install ") {
                    #expect(ran.stdout.contains("added identity '\(label)'"), "\(ran.stdout)")
                    #expect(ran.stdout.contains("rewritten"), "\(ran.stdout)")
                }
            }
            if round == 2 { #expect(created.stdout.contains("new key beside ec"), "\(created.stdout)") }
        }
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        let applePay = ((written?["merchant"] as? [String: Any])?["SHOP"] as? [String: Any])?["applePay"] as? [String: Any]
        #expect(applePay?["identities"] as? [String] == ["ec", "ec-2"])
        #expect((applePay?["ec"] as? [String: String])?["privateKey"]?.hasSuffix("/ec-key.pem") == true)
        #expect((applePay?["ec-2"] as? [String: String])?["privateKey"]?.hasSuffix("/ec-2-key.pem") == true)
        #expect(FileManager.default.fileExists(atPath: directory.appending(path: "ec-certificate.pem").path))
        #expect(FileManager.default.fileExists(atPath: directory.appending(path: "ec-2-certificate.pem").path))

        // Installing the same certificate again changes nothing and says so.
        let repeated = try gateway([
            "applepay-identity", "install", "--merchant", merchant, "--certificate", "apple_pay.cer", "--config", config,
            "--gateway-merchant", "SHOP",
        ])
        #expect(repeated.status == 0, "\(repeated.stderr)")
        #expect(repeated.stdout.contains("was already"), "\(repeated.stdout)")
    }

    @Test("install checks before it writes: an unlisted merchant, a taken name; --replace and --name say what they did")
    func installChecksFirst() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let config = try writeConfiguration()
        let before = try String(contentsOfFile: config, encoding: .utf8)
        #expect(try gateway(["applepay-identity", "new", "--merchant", merchant]).status == 0)
        let signed = try gateway(["applepay-identity", "sandbox-sign", "--merchant", merchant, "--config", config])
        #expect(signed.status == 0, "\(signed.stderr)")
        let certificateFile = work.appending(path: "data/applepay/\(merchant)/ec-certificate.pem").path

        let unlisted = try gateway([
            "applepay-identity", "install", "--merchant", merchant, "--certificate", "apple_pay.cer", "--config", config,
            "--gateway-merchant", "SHOP2",
        ])
        #expect(unlisted.status != 0)
        #expect(unlisted.stderr.contains("does not list SHOP2 (it lists SHOP)"), "\(unlisted.stderr)")
        #expect(!unlisted.stderr.contains("pass --gateway-merchant"))
        #expect(!FileManager.default.fileExists(atPath: certificateFile), "nothing is stored before the checks pass")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == before)

        let installed = try gateway([
            "applepay-identity", "install", "--merchant", merchant, "--certificate", "apple_pay.cer", "--config", config,
            "--gateway-merchant", "SHOP",
        ])
        #expect(installed.status == 0, "\(installed.stderr)")

        // Another directory's key would also be 'ec': refused, the live identity untouched.
        #expect(try gateway(["applepay-identity", "new", "--merchant", merchant, "--directory", "elsewhere"]).status == 0)
        let signedElsewhere = try gateway([
            "applepay-identity", "sandbox-sign", "--merchant", merchant, "--directory", "elsewhere", "--config", config,
            "--output", "elsewhere.cer",
        ])
        #expect(signedElsewhere.status == 0, "\(signedElsewhere.stderr)")
        let configured = try String(contentsOfFile: config, encoding: .utf8)
        let taken = try gateway([
            "applepay-identity", "install", "--merchant", merchant, "--directory", "elsewhere", "--certificate", "elsewhere.cer",
            "--config", config, "--gateway-merchant", "SHOP",
        ])
        #expect(taken.status != 0)
        #expect(taken.stderr.contains("merchant.SHOP.applePay.ec") && taken.stderr.contains("--replace"), "\(taken.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == configured)
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "elsewhere/\(merchant)/ec-certificate.pem").path))

        let beside = try gateway([
            "applepay-identity", "install", "--merchant", merchant, "--directory", "elsewhere", "--certificate", "elsewhere.cer",
            "--config", config, "--gateway-merchant", "SHOP", "--name", "ec-elsewhere",
        ])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stdout.contains("identities: ec, ec-elsewhere"), "\(beside.stdout)")
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
        #expect(wrongMerchant.stderr.contains("issued for merchant.com.other, not for \(merchant)"), "\(wrongMerchant.stderr)")

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
