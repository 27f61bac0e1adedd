import Foundation

/// `gateway serve --port 0` started from the repository root on a given store, as the README
/// runs it; `port` is read from its start-up line.
final class RunningGateway {
    let process = Process()
    let port: Int
    let startLine: String

    convenience init(store: URL) async throws {
        try await self.init(storeURL: "sqlite://\(store.path)")
    }

    /// - Parameter environment: more GATEWAY_* settings (trust roots, store timeouts).
    init(storeURL: String, environment: [String: String] = [:]) async throws {
        process.executableURL = Gateway.executable
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = ServeCommandTests.packageRoot
        process.environment = environment.merging(["GATEWAY_STORE_URL": storeURL]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        guard let line = await Self.startLine(from: output.fileHandleForReading),
            let port = line.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) })
        else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
        self.startLine = line
        // Keep reading the log, so a chatty server never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
    }

    func url(_ path: String) -> URL { Self.url(port: port, path) }

    static func url(port: Int, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/api/rest/version/100\(path)")!
    }

    /// Reads output until the gateway says where it listens (or 20 seconds pass).
    private static func startLine(from handle: FileHandle) async -> String? {
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
