import BlockingWork
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `gateway serve` as the README runs it, from the repository root, over a real socket.
@Suite("gateway serve", .blocksThreads)
struct ServeCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("starts in sandbox mode with the embedded defaults and takes a payment")
    func serveWithDefaults() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).sqlite")
        let server = try await RunningGateway(store: store)
        defer { server.process.terminate() }
        #expect(server.startLine.contains("sandbox mode"))
        #expect(server.startLine.contains("TESTMERCHANT"))
        let port = server.port

        let base = "http://127.0.0.1:\(port)/api/rest/version/100"
        let (information, _) = try await URLSession.shared.data(from: URL(string: "\(base)/information")!)
        #expect(String(decoding: information, as: UTF8.self) == #"{"status":"OPERATING"}"#)

        var request = URLRequest(url: URL(string: "\(base)/merchant/TESTMERCHANT/order/cli-1/transaction/1")!)
        request.httpMethod = "PUT"
        request.setValue(
            "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString(),
            forHTTPHeaderField: "Authorization"
        )
        request.httpBody = Data(
            #"{"apiOperation":"PAY","order":{"amount":"57.57","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: body, as: UTF8.self).contains(#""gatewayCode":"DECLINED""#))
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    @Test("a busy port or a SQLite file another gateway holds: one line naming it, and the store untouched")
    func claimsBeforeTouching() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString).sqlite")
        let first = try await RunningGateway(store: store)
        defer { first.process.terminate() }
        let modified = try FileManager.default.attributesOfItem(atPath: store.path)[.modificationDate] as? Date

        // The first gateway's port, with another store: refused before that store is created.
        let otherStore = FileManager.default.temporaryDirectory.appendingPathComponent("claims-other-\(UUID().uuidString).sqlite")
        let environment = ["PATH": "/usr/bin:/bin", "GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": NSTemporaryDirectory() + "claims-authority"]
        let busy = try Gateway.run(
            ["serve", "--port", "\(first.port)"],
            directory: Self.packageRoot,
            environment: environment.merging(["GATEWAY_STORE_URL": "sqlite://\(otherStore.path)"]) { $1 }
        )
        #expect(busy.status == 1)
        #expect(
            busy.stderr == "error: cannot listen on 127.0.0.1:\(first.port): the port is in use by another process "
                + "(another gateway?); choose another with --port or server.port\n",
            "\(busy.stderr)"
        )
        #expect(!FileManager.default.fileExists(atPath: otherStore.path))

        // Another port, the first gateway's SQLite file: refused, the file as it was.
        let shared = try Gateway.run(
            ["serve", "--port", "0"],
            directory: Self.packageRoot,
            environment: environment.merging(["GATEWAY_STORE_URL": "sqlite://\(store.path)"]) { $1 }
        )
        #expect(shared.status == 1)
        #expect(shared.stderr.hasPrefix("error: the SQLite store \(store.path) is in use by another gateway process"), "\(shared.stderr)")
        #expect(shared.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: store.path)[.modificationDate] as? Date == modified)
    }

    @Test("check-config validates without serving and names a bad key")
    func checkConfig() throws {
        let good = try Gateway.run(["check-config"], directory: Self.packageRoot)
        #expect(good.status == 0)
        #expect(good.stdout.contains("configuration is valid"))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        try #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["nothex"]}}}"#.write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        let bad = try Gateway.run(["check-config", "--config", file.path], directory: Self.packageRoot)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("merchant.A.apiPasswords"))
    }
}
