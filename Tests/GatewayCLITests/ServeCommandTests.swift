import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `gateway serve` as the README runs it, from the repository root, over a real socket.
@Suite("gateway serve")
struct ServeCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("starts in sandbox mode with the embedded defaults and takes a payment")
    func serveWithDefaults() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).sqlite")
        let process = Process()
        process.executableURL = Gateway.executable
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = Self.packageRoot
        process.environment = ["GATEWAY_STORE_URL": "sqlite://\(store.path)", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { process.terminate() }

        let line = try #require(await Self.startLine(from: output.fileHandleForReading))
        #expect(line.contains("sandbox mode"))
        #expect(line.contains("TESTMERCHANT"))
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })

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

    /// Reads output until the gateway says where it listens (or 20 seconds pass).
    static func startLine(from handle: FileHandle) async -> String? {
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { try? await Task.sleep(for: .milliseconds(50)) }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.contains("listening on http://") }) {
                return String(line)
            }
        }
        return nil
    }
}
