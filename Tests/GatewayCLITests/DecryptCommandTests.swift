import BlockingWork
import Foundation
import Testing

/// Runs the built `gateway` binary as a merchant's engineer would.
@Suite("gateway decrypt", .blocksThreads)
struct DecryptCommandTests {
    static let vectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/ApplePayTokenTests/Fixtures/conformance/vectors")

    @Test("prints the masked payment data and exits 0")
    func decryptsRealToken() throws {
        let vector = Self.vectors.appendingPathComponent("gala-2021")
        let run = try Gateway.run([
            "decrypt", "--token", vector.appendingPathComponent("token.json").path,
            "--private-key", vector.appendingPathComponent("private_key.pem").path,
            "--certificate", vector.appendingPathComponent("certificate.pem").path,
            "--at", "2021-09-01T19:03:06Z",
        ])
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["applicationPrimaryAccountNumber"] as? String == "535375xxxxxx1169")
        #expect(json["transactionAmount"] as? Int == 100)
        #expect(!run.stdout.contains("5353756319181169"))
        #expect(run.stderr.isEmpty)
    }

    @Test("--unmask prints the full account number; the token may come on stdin")
    func unmaskFromStandardInput() throws {
        let vector = Self.vectors.appendingPathComponent("payu-sandbox-2018")
        let merchantId = try String(contentsOf: vector.appendingPathComponent("merchant_id.txt"), encoding: .utf8)
        let run = try Gateway.run(
            [
                "decrypt", "--token", "-", "--private-key", vector.appendingPathComponent("private_key.pem").path,
                "--merchant-id", merchantId.trimmingCharacters(in: .whitespacesAndNewlines),
                "--at", "2018-01-26T13:57:00Z", "--unmask",
            ],
            stdin: try Data(contentsOf: vector.appendingPathComponent("token.json"))
        )
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"5204242750270010\""))
        #expect(!run.stdout.contains("xxxxxx"))
    }

    @Test("a failed check exits non-zero with one line naming it")
    func failureNamesTheCheck() throws {
        let vector = Self.vectors.appendingPathComponent("gala-2021")
        let today = try Gateway.run([
            "decrypt", "--token", vector.appendingPathComponent("token.json").path,
            "--private-key", vector.appendingPathComponent("private_key.pem").path,
            "--certificate", vector.appendingPathComponent("certificate.pem").path,
        ])
        #expect(today.status != 0)
        #expect(today.stdout.isEmpty)
        #expect(today.stderr.hasPrefix("error: SIGNING_TIME_OUTSIDE_WINDOW"))
        #expect(today.stderr.split(separator: "\n").count == 1)

        let rotated = Self.vectors.appendingPathComponent("gala-2023-rotated")
        let wrongKey = try Gateway.run([
            "decrypt", "--token", rotated.appendingPathComponent("token.json").path,
            "--private-key", rotated.appendingPathComponent("merchant_key_2023_nonmatching.pem").path,
            "--certificate", rotated.appendingPathComponent("merchant_cert_2023_nonmatching.pem").path,
            "--at", "2023-03-07T05:33:48Z",
        ])
        #expect(wrongKey.status != 0)
        #expect(wrongKey.stderr.hasPrefix("error: NO_MATCHING_KEY"))
    }

    @Test("an altered leaf in a production token names the failing link, in one line, with no sandbox hint")
    func alteredLeafNamesTheLink() throws {
        let vector = Self.vectors.appendingPathComponent("gala-2021")
        var token = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: vector.appendingPathComponent("token.json"))) as? [String: Any])
        var signature = try #require(Data(base64Encoded: token["signature"] as? String ?? ""))
        // One letter of the leaf's subject name: the issuer still matches, the intermediate's signature no longer does.
        let name = try #require(signature.range(of: Data("smp-broker-sign".utf8)))
        signature[name.lowerBound] ^= 0x20
        token["signature"] = signature.base64EncodedString()
        let altered = FileManager.default.temporaryDirectory.appendingPathComponent("altered-leaf-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: altered) }
        try JSONSerialization.data(withJSONObject: token).write(to: altered)
        let run = try Gateway.run([
            "decrypt", "--token", altered.path,
            "--private-key", vector.appendingPathComponent("private_key.pem").path,
            "--certificate", vector.appendingPathComponent("certificate.pem").path,
            "--at", "2021-09-01T19:03:06Z",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: UNTRUSTED_CHAIN: the leaf 'ecc-Smp-broker-sign_UC4-PROD' "), "\(run.stderr)")
        #expect(run.stderr.contains("is not signed by the intermediate 'Apple Application Integration CA - G3'"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!run.stderr.lowercased().contains("sandbox"), "\(run.stderr)")
    }

    @Test("key and certificate problems name the file; a foreign certificate names its merchant")
    func keyProblemsNameTheFile() throws {
        let vector = Self.vectors.appendingPathComponent("gala-2021")
        let rotated = Self.vectors.appendingPathComponent("gala-2023-rotated")
        let tokenFile = vector.appendingPathComponent("token.json").path
        let keyFile = vector.appendingPathComponent("private_key.pem").path
        let foreign = rotated.appendingPathComponent("merchant_cert_2023_nonmatching.pem").path

        let mismatched = try Gateway.run(["decrypt", "--token", tokenFile, "--private-key", keyFile, "--certificate", foreign])
        #expect(mismatched.status == 1)
        #expect(mismatched.stderr.hasPrefix("error: \(keyFile): this private key does not belong to \(foreign) (for "), "\(mismatched.stderr)")
        #expect(!mismatched.stderr.contains("private key 1"))
        #expect(mismatched.stderr.split(separator: "\n").count == 1)

        let notAKey = try Gateway.run(["decrypt", "--token", tokenFile, "--private-key", tokenFile])
        #expect(notAKey.status == 1)
        #expect(notAKey.stderr.hasPrefix("error: INVALID_KEY_MATERIAL: \(tokenFile): "), "\(notAKey.stderr)")

        let notACertificate = try Gateway.run(["decrypt", "--token", tokenFile, "--private-key", keyFile, "--certificate", keyFile])
        #expect(notACertificate.stderr.hasPrefix("error: INVALID_KEY_MATERIAL: \(keyFile): "), "\(notACertificate.stderr)")

        let noCertificate = try Gateway.run(["decrypt", "--token", tokenFile, "--private-key", keyFile])
        #expect(noCertificate.stderr.hasPrefix("error: \(keyFile): no certificate given for this private key"), "\(noCertificate.stderr)")
    }

    @Test("a GCM tag failure with --merchant-id names it as a possible cause")
    func wrongMerchantIdIsNamed() throws {
        let vector = Self.vectors.appendingPathComponent("payu-sandbox-2018")
        let run = try Gateway.run([
            "decrypt", "--token", vector.appendingPathComponent("token.json").path,
            "--private-key", vector.appendingPathComponent("private_key.pem").path,
            "--merchant-id", "merchant.com.example.wrong", "--at", "2018-01-26T13:57:00Z",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: DECRYPTION_FAILED"), "\(run.stderr)")
        #expect(run.stderr.contains("check --merchant-id 'merchant.com.example.wrong'"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("a missing file is reported without a crash")
    func missingFile() throws {
        let run = try Gateway.run(["decrypt", "--token", "/nonexistent/token.json", "--private-key", "/nonexistent/key.pem"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot read"))
    }
}

enum Gateway {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `gateway` binary beside the test bundle in the build products directory.
    static var executable: URL {
        let products =
            Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }?
            .deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return products.appendingPathComponent("gateway")
    }

    static func run(
        _ arguments: [String],
        stdin: Data? = nil,
        directory: URL? = nil,
        environment: [String: String]? = nil,
        executable: URL = executable
    ) throws -> Result {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readToEndOfFile()
        let err = errors.fileHandleForReading.readToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self)
        )
    }
}

@Suite("gateway decrypt with a PKCS#12 bundle", .blocksThreads)
struct DecryptPKCS12Tests {
    @Test("the bundle's key and certificate are used together")
    func bundle() throws {
        let vector = DecryptCommandTests.vectors.appendingPathComponent("vgs-starlarky-2023")
        let password = try String(contentsOf: vector.appendingPathComponent("keystore_password.txt"), encoding: .utf8)
        let run = try Gateway.run([
            "decrypt", "--token", vector.appendingPathComponent("token.json").path,
            "--private-key", vector.appendingPathComponent("keystore.p12").path,
            "--pkcs12-password", password.trimmingCharacters(in: .whitespacesAndNewlines),
            "--at", "2023-08-24T22:23:18Z",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("454793xxxxxx3086"))
    }
}
