import BlockingWork
import Foundation
import GooglePaySandbox
import GooglePayToken
import Testing

/// `gateway decrypt` and `gateway mint-token --wallet google-pay` with Google Pay tokens, run as
/// a merchant's engineer runs them.
@Suite("gateway decrypt and mint-token with Google Pay", .blocksThreads)
struct GooglePayCommandTests {
    static let fixtures = ServeCommandTests.packageRoot.appendingPathComponent("Tests/GooglePayTokenTests/Fixtures")
    static let googleTest = fixtures.appendingPathComponent("moov-google-test")
    /// A moment the Google test token is valid at.
    static let googleTestTime = "2022-02-22T00:33:20Z"
    static let googleTestRecipient = "merchant:12345678901234567890"

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("google-pay-cli-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func fixtureKey(_ vector: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent("\(vector)/recipient-key.pem"), encoding: .utf8)
    }

    /// The base64 of a PKCS#8 PEM's DER, the one-line form Google's guide also uses.
    static func base64PKCS8(_ pem: String) -> String {
        pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a real Google test token decrypts with its PAN masked; --unmask shows it; the token may come on stdin")
    func googleTestToken() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Gateway.run([
            "decrypt", "--token", Self.googleTest.appendingPathComponent("token.json").path,
            "--private-key", Self.googleTest.appendingPathComponent("recipient-key.pem").path,
            "--recipient-id", Self.googleTestRecipient, "--at", Self.googleTestTime,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let message = try Self.json(run.stdout)
        #expect((message["messageId"] as? String)?.hasPrefix("AH2EjtdXWjOxGkyAxyLlyakv") == true)
        let details = try #require(message["paymentMethodDetails"] as? [String: Any])
        #expect(details["pan"] as? String == "411111xxxxxx1111")
        #expect(details["authMethod"] as? String == "PAN_ONLY")
        #expect(details["expirationMonth"] as? Int == 12 && details["expirationYear"] as? Int == 2027)
        #expect(!run.stdout.contains("4111111111111111"))

        let unmasked = try Gateway.run(
            [
                "decrypt", "--token", "-", "--private-key", Self.googleTest.appendingPathComponent("recipient-key.pem").path,
                "--recipient-id", Self.googleTestRecipient, "--at", Self.googleTestTime, "--unmask",
            ],
            stdin: try Data(contentsOf: Self.googleTest.appendingPathComponent("token.json"))
        )
        #expect(unmasked.status == 0, "\(unmasked.stderr)")
        #expect(unmasked.stdout.contains("\"4111111111111111\""))
    }

    @Test("a sandbox token decrypts under its root's keys.json with the second of two keys, as base64 PKCS#8, given as a JSON string")
    func sandboxTokenWithRotatedKeys() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let merchantKey = try Self.fixtureKey("yoyo-tink-valid")
        let root = GooglePaySandboxRoot()
        var request = GooglePayMintRequest()
        request.authMethod = .cryptogram3DS
        request.pan = "5204740000001002"
        request.cryptogram = "AJkBBkhgQQAAAE4gSEJydQAAAAA="
        request.eciIndicator = "02"
        let token = try GooglePayTokenMinter(root: root).mint(
            request,
            recipientId: "gateway:cli",
            recipientPublicKey: try #require(GooglePayTokenMinter.recipientPublicKey(from: merchantKey))
        )
        // As tokenizationData.token holds it: the token JSON inside a JSON string.
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: token, options: .fragmentsAllowed), as: UTF8.self)
        let run = try Gateway.run([
            "decrypt", "--token", try file("token.json", quoted),
            "--private-key", Self.googleTest.appendingPathComponent("recipient-key.pem").path,
            "--private-key", try file("key.b64", Self.base64PKCS8(merchantKey)),
            "--recipient-id", "gateway:cli", "--google-root-keys", try file("keys.json", root.keysJSON),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let details = try #require(try Self.json(run.stdout)["paymentMethodDetails"] as? [String: Any])
        #expect(details["authMethod"] as? String == "CRYPTOGRAM_3DS")
        #expect(details["pan"] as? String == "520474xxxxxx1002")
        #expect(details["cryptogram"] as? String == "AJkBBkhgQQAAAE4gSEJydQAAAAA=" && details["eciIndicator"] as? String == "02")
    }

    @Test("each failure is one line on stderr naming the check, with what to try")
    func failuresNameTheCheck() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = Self.googleTest.appendingPathComponent("token.json").path
        let key = Self.googleTest.appendingPathComponent("recipient-key.pem").path
        func decrypt(_ extra: [String]) throws -> Gateway.Result {
            try Gateway.run(["decrypt", "--token", token, "--private-key", key] + extra)
        }
        let cases: [(arguments: [String], prefix: String, mentions: String)] = [
            (["--recipient-id", "merchant:1", "--at", Self.googleTestTime], "error: MESSAGE_SIGNATURE_INVALID", "--recipient-id 'merchant:1'"),
            (
                [
                    "--recipient-id", Self.googleTestRecipient, "--at", Self.googleTestTime, "--google-root-keys",
                    try file("roots.json", GooglePaySandboxRoot().keysJSON),
                ],
                "error: UNTRUSTED_INTERMEDIATE_KEY", "(--google-root-keys)"
            ),
            (["--recipient-id", Self.googleTestRecipient], "error: INTERMEDIATE_KEY_EXPIRED", "expired at 2022-02-22"),
            (["--at", Self.googleTestTime], "error: a Google Pay token needs --recipient-id", "merchant:<merchant id>"),
            (["--recipient-id", "12345678901234567890"], "error: --recipient-id must be gateway:", "12345678901234567890"),
            (
                ["--recipient-id", Self.googleTestRecipient, "--merchant-id", "merchant.x"], "error: --merchant-id is for Apple Pay tokens",
                "this token is not one"
            ),
            (
                ["--recipient-id", Self.googleTestRecipient, "--private-key", token], "error: INVALID_KEY_MATERIAL: \(token): ",
                "neither PEM nor base64 PKCS#8"
            ),
        ]
        for (arguments, prefix, mentions) in cases {
            let run = try decrypt(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr.hasPrefix(prefix) && run.stderr.contains(mentions), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }

        // A Google Pay token that is not valid JSON is still read as one, and its fault named.
        let tokenText = try String(contentsOfFile: token, encoding: .utf8)
        let repeated = try Gateway.run([
            "decrypt", "--token",
            try file("repeated.json", tokenText.replacingOccurrences(of: "{", with: #"{"protocolVersion":"ECv2","#, range: tokenText.range(of: "{"))),
            "--private-key", key, "--recipient-id", Self.googleTestRecipient,
        ])
        #expect(repeated.stderr.hasPrefix(#"error: MALFORMED_TOKEN: the token repeats the key "protocolVersion""#), "\(repeated.stderr)")

        // Google Pay's options on an Apple Pay token are said to be misplaced, not ignored.
        let apple = DecryptCommandTests.vectors.appendingPathComponent("gala-2021")
        let misplaced = try Gateway.run([
            "decrypt", "--token", apple.appendingPathComponent("token.json").path,
            "--private-key", apple.appendingPathComponent("private_key.pem").path,
            "--certificate", apple.appendingPathComponent("certificate.pem").path, "--recipient-id", "gateway:x",
        ])
        #expect(misplaced.status == 1)
        #expect(misplaced.stderr.hasPrefix("error: --recipient-id is for Google Pay tokens"), "\(misplaced.stderr)")
    }

    @Test("mint-token --wallet google-pay mints for gateway:mpgs under a kept root; gateway decrypt reads it back")
    func mintThenDecrypt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let merchantKey = try file("merchant.pem", try Self.fixtureKey("moov-google-test"))
        let sandbox = directory.appendingPathComponent("google-pay-sandbox")
        func mint(_ extra: [String]) throws -> Gateway.Result {
            try Gateway.run(
                ["mint-token", "--wallet", "google-pay", "--public-key", merchantKey, "--google-sandbox-directory", sandbox.path] + extra,
                directory: ServeCommandTests.packageRoot
            )
        }
        let minted = try mint(["--pan", "4895370012003478", "--expiry", "290731", "--cryptogram", "AgAAAAAABk4DWZ4C28yUQAAAAAA=", "--eci", "07"])
        #expect(minted.status == 0, "\(minted.stderr)")
        #expect(try Self.json(minted.stdout)["protocolVersion"] as? String == "ECv2")
        let keys = sandbox.appendingPathComponent("keys.json").path
        let rootKey = sandbox.appendingPathComponent("root-key.pem").path
        let mode = try FileManager.default.attributesOfItem(atPath: rootKey)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let decrypted = try Gateway.run([
            "decrypt", "--token", try file("minted.json", minted.stdout), "--private-key", merchantKey,
            "--recipient-id", "gateway:mpgs", "--google-root-keys", keys, "--unmask",
        ])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        let message = try Self.json(decrypted.stdout)
        #expect(message["gatewayMerchantId"] as? String == "TESTMERCHANT")
        let details = try #require(message["paymentMethodDetails"] as? [String: Any])
        #expect(details["authMethod"] as? String == "CRYPTOGRAM_3DS" && details["pan"] as? String == "4895370012003478")
        #expect(details["expirationMonth"] as? Int == 7 && details["expirationYear"] as? Int == 2029)
        #expect(details["cryptogram"] as? String == "AgAAAAAABk4DWZ4C28yUQAAAAAA=" && details["eciIndicator"] as? String == "07")

        // The root is kept: a second token, for a merchant recipient and already expired, is
        // signed by the same root and refused for its expiration alone.
        let keysBefore = try String(contentsOfFile: keys, encoding: .utf8)
        let expired = try mint(["--recipient-id", "merchant:shop", "--message-expiration", "2020-01-01T00:00:00Z"])
        #expect(expired.status == 0, "\(expired.stderr)")
        #expect(try String(contentsOfFile: keys, encoding: .utf8) == keysBefore)
        let refused = try Gateway.run([
            "decrypt", "--token", try file("expired.json", expired.stdout), "--private-key", merchantKey,
            "--recipient-id", "merchant:shop", "--google-root-keys", keys,
        ])
        #expect(refused.stderr.hasPrefix("error: MESSAGE_EXPIRED"), "\(refused.stderr)")

        // Without --public-key: the merchant's configured key (the sandbox defaults' TESTMERCHANT).
        let configured = try Gateway.run(
            ["mint-token", "--wallet", "google-pay", "--google-sandbox-directory", sandbox.path],
            directory: ServeCommandTests.packageRoot
        )
        #expect(configured.status == 0, "\(configured.stderr)")
        let sandboxKey = ServeCommandTests.packageRoot.appendingPathComponent("Config/sandbox/google-pay-key.pem").path
        let opened = try Gateway.run([
            "decrypt", "--token", try file("configured.json", configured.stdout), "--private-key", sandboxKey,
            "--recipient-id", "gateway:mpgs", "--google-root-keys", keys,
        ])
        #expect(opened.status == 0, "\(opened.stderr)")
    }

    @Test("mint-token refuses the other wallet's options, a missing key, and a merchant the configuration does not list")
    func mintRefusals() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let merchantKey = try file("merchant.pem", try Self.fixtureKey("moov-google-test"))
        let sandbox = directory.appendingPathComponent("google-pay-sandbox").path
        func mint(_ arguments: [String]) throws -> Gateway.Result {
            try Gateway.run(["mint-token"] + arguments, directory: ServeCommandTests.packageRoot)
        }
        let cases: [(arguments: [String], status: Int32, mentions: String)] = [
            (["--wallet", "google-pay", "--public-key", merchantKey, "--amount", "1.00"], 64, "--amount is for Apple Pay tokens"),
            (["--amount", "1.00", "--currency", "USD", "--public-key", merchantKey], 64, "--public-key is for --wallet google-pay"),
            (["--wallet", "google-pay", "--public-key", merchantKey, "--auth-method", "CARD"], 64, "PAN_ONLY or CRYPTOGRAM_3DS"),
            (["--wallet", "google-pay", "--public-key", merchantKey, "--google-sandbox-directory", sandbox, "--merchant", "NOPE"], 78, "NOPE"),
            (["--wallet", "google-pay", "--public-key", sandbox, "--google-sandbox-directory", sandbox], 1, "cannot read"),
        ]
        for (arguments, status, mentions) in cases {
            let run = try mint(arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty && run.stderr.contains(mentions), "\(arguments): \(run.stderr)")
        }
    }
}
