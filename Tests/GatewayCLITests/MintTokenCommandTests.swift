import BlockingWork
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `gateway mint-token` as an integrator runs it: its tokens verify with OpenSSL alone and pay
/// on a sandbox-mode `gateway serve` sharing the authority directory.
@Suite("gateway mint-token", .blocksThreads)
struct MintTokenCommandTests {
    let store = FileManager.default.temporaryDirectory.appendingPathComponent("mint-\(UUID().uuidString).sqlite")
    var authority: URL { RunningGateway.sandboxAuthority(beside: store) }

    func mint(_ arguments: [String], environment: [String: String] = [:]) throws -> Gateway.Result {
        try Gateway.run(
            ["mint-token"] + arguments,
            directory: ServeCommandTests.packageRoot,
            environment: ["GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": authority.path].merging(environment) { $1 }
        )
    }

    @Test(
        "openssl cms -verify accepts minted tokens with the sandbox root and rejects altered ones",
        arguments: [["--version", "EC_v1"], ["--version", "RSA_v1", "--application-data", "6f726465722d3432"]]
    )
    func opensslVerifies(arguments: [String]) throws {
        defer { try? FileManager.default.removeItem(at: authority) }
        let minted = try mint(["--amount", "56.56", "--currency", "USD"] + arguments)
        #expect(minted.status == 0, "\(minted.stderr)")
        let root = authority.appending(path: "root.pem").path
        let verified = try Self.verifyWithOpenSSL(minted.stdout, root: root)
        #expect(verified.status == 0, "\(verified.stderr)")

        var token = try #require(try JSONSerialization.jsonObject(with: Data(minted.stdout.utf8)) as? [String: Any])
        var data = Array(try #require(Data(base64Encoded: token["data"] as? String ?? "")))
        data[data.count / 2] ^= 0x01
        token["data"] = Data(data).base64EncodedString()
        let altered = String(decoding: try JSONSerialization.data(withJSONObject: token), as: UTF8.self)
        #expect(try Self.verifyWithOpenSSL(altered, root: root).status != 0, "openssl accepted altered data")
    }

    @Test("a minted token pays on the sandbox gateway; one signed an hour ago is refused")
    func paysOnSandboxGateway() async throws {
        defer { try? FileManager.default.removeItem(at: authority) }
        let approved = try mint(["--amount", "56.56", "--currency", "USD", "--cardholder-name", "Jane Appleseed"])
        #expect(approved.status == 0, "\(approved.stderr)")
        let anHourAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        let old = try mint(["--amount", "56.56", "--currency", "USD", "--signing-time", anHourAgo])
        #expect(old.status == 0, "\(old.stderr)")

        let server = try await RunningGateway(store: store)
        defer { server.process.terminate() }
        let paid = try await Self.authorize(port: server.port, order: "cli-mint-1", token: approved.stdout, amount: "56.56")
        #expect(paid.status == 201)
        #expect((paid.json["response"] as? [String: Any])?["gatewayCode"] as? String == "APPROVED")
        let refused = try await Self.authorize(port: server.port, order: "cli-mint-2", token: old.stdout, amount: "56.56")
        #expect(refused.status == 400)
        let explanation = (refused.json["error"] as? [String: Any])?["explanation"] as? String
        #expect(explanation?.contains("SIGNING_TIME_OUTSIDE_WINDOW") == true, "\(refused.json)")
    }

    @Test("production refuses to mint, and its server has no sandbox endpoint")
    func production() async throws {
        defer { try? FileManager.default.removeItem(at: authority) }
        let refused = try mint(["--amount", "1.00", "--currency", "USD"], environment: ["GATEWAY_MODE": "production"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("mode"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authority.path), "production created a sandbox authority")

        let server = try await RunningGateway(store: store, environment: ["GATEWAY_MODE": "production"])
        defer { server.process.terminate() }
        #expect(server.startLine.contains("production mode"))
        #expect(server.startLine.contains("trusting Apple Root CA - G3 alone"))
        #expect(server.startLine.contains("Google Pay off for TESTMERCHANT"))
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/sandbox/merchant/TESTMERCHANT/applepay/token")!)
        request.httpMethod = "POST"
        request.setValue(Self.authorization, forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"amount":"1.00","currency":"USD"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test("bad options name the option")
    func badOptions() throws {
        defer { try? FileManager.default.removeItem(at: authority) }
        let result = try mint(["--amount", "1.005", "--currency", "USD"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("amount:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    static let authorization =
        "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString()

    static func verifyWithOpenSSL(_ token: String, root: String) throws -> Gateway.Result {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", ServeCommandTests.packageRoot.appending(path: "scripts/verify-token-openssl").path, root]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(token.utf8))
        try input.fileHandleForWriting.close()
        let stderr = errors.fileHandleForReading.readToEndOfFile()
        process.waitUntilExit()
        return Gateway.Result(status: process.terminationStatus, stdout: "", stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func authorize(port: Int, order: String, token: String, amount: String) async throws -> (status: Int, json: [String: Any]) {
        let body: [String: Any] = [
            "apiOperation": "AUTHORIZE",
            "order": ["amount": amount, "currency": "USD", "walletProvider": "APPLE_PAY"],
            "sourceOfFunds": [
                "type": "CARD",
                "provided": ["card": ["devicePayment": ["paymentToken": token.trimmingCharacters(in: .whitespacesAndNewlines)]]],
            ],
        ]
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT/order/\(order)/transaction/1"))
        request.httpMethod = "PUT"
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        return (
            (response as? HTTPURLResponse)?.statusCode ?? 0,
            (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        )
    }
}
