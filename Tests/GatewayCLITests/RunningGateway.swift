import BlockingWork
import Foundation
import Synchronization
import Testing

/// `gateway serve --port 0` started from the repository root on a given store, as the README
/// runs it; `port` is read from its start-up line. Everything it writes is kept in `output`.
final class RunningGateway {
    let process: ChildProcess
    let port: Int
    let startLine: String
    private let captured: OutputCapture

    /// The sandbox authority named after the store, so parallel tests never share one.
    static func sandboxAuthority(beside store: URL) -> URL {
        URL(fileURLWithPath: store.path + ".sandbox-authority")
    }

    convenience init(store: URL, arguments: [String] = [], environment: [String: String] = [:]) async throws {
        try await self.init(
            storeURL: "sqlite://\(store.path)",
            sandboxAuthority: Self.sandboxAuthority(beside: store),
            arguments: arguments,
            // The sandbox Google root beside the store too (by default it is beside the authority's
            // directory: the temporary directory every test shares).
            environment: ["GATEWAY_SANDBOX_GOOGLE_PAY_DIRECTORY": store.path + ".google-pay-sandbox"].merging(environment) { $1 }
        )
    }

    /// - Parameter environment: more GATEWAY_* settings (limits, store timeouts, mode).
    init(
        storeURL: String,
        sandboxAuthority: URL,
        arguments: [String] = [],
        environment: [String: String] = [:]
    ) async throws {
        let process = ChildProcess()
        process.executableURL = Gateway.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = ServeCommandTests.packageRoot
        process.environment = [
            "GATEWAY_STORE_URL": storeURL,
            "GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": sandboxAuthority.path,
        ].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let captured = OutputCapture()
        guard let line = await Self.startLine(from: output.fileHandleForReading, into: captured),
            let port = Self.port(in: line)
        else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        self.process = process
        self.port = port
        self.startLine = line
        self.captured = captured
        // Keep reading the log, so a chatty server never blocks on a full pipe.
        captured.keepReading(output.fileHandleForReading)
    }

    /// What the server has written to stdout and stderr so far.
    var output: String { captured.text }

    func url(_ path: String) -> URL { Self.url(port: port, path) }

    static func url(port: Int, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/api/rest/version/100\(path)")!
    }

    /// Sends the signal and waits (at most `timeout`) for the process to exit; then the rest of
    /// its output has been read.
    func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) async -> Bool {
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else { return false }
        await captured.untilEndOfFile()
        return true
    }

    /// The port in "listening on http://host:PORT", in a text or JSON log line.
    static func port(in line: String) -> Int? {
        guard let range = line.range(of: "listening on http://") ?? line.range(of: "listening on https://") else { return nil }
        let address = line[range.upperBound...].prefix { $0 != "\"" && $0 != " " }
        return address.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    /// Reads output until the gateway says where it listens (or 20 seconds pass).
    private static func startLine(from handle: FileHandle, into captured: OutputCapture) async -> String? {
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        while Date() < deadline {
            let chunk = handle.readChunk()
            if chunk.isEmpty { try? await Task.sleep(for: .milliseconds(50)) }
            captured.append(chunk)
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: {
                $0.contains("listening on http://") || ($0.contains("listening on https://") && !$0.contains("certificate authentication"))
            }) {
                return String(line)
            }
        }
        return nil
    }
}

/// Bytes read from the server's output, shared with the pipe's reading thread.
final class OutputCapture: Sendable {
    private let state = Mutex((data: Data(), ended: false))

    func append(_ chunk: Data) { state.withLock { $0.data.append(chunk) } }
    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }

    /// Reads `handle` to end of file: blocking reads on a thread of their own. Not
    /// `readabilityHandler`, whose dispatch read source, torn down while other tests' are set up,
    /// crashes libdispatch's event loop (swift-corelibs-libdispatch#949); this test process
    /// crashed so twice.
    func keepReading(_ handle: FileHandle) {
        Thread { [self] in
            while case let chunk = handle.readChunk(), !chunk.isEmpty { append(chunk) }
            state.withLock { $0.ended = true }
        }.start()
    }

    /// Once the process has exited: waits (at most `timeout`) until its last lines are read. A
    /// fixed pause was not enough on a loaded machine, where the reading thread ran late and a
    /// refusal's message read as empty.
    func untilEndOfFile(timeout: Duration = .seconds(10)) async {
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ $0.ended }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension RunningGateway {
    /// Waits (bounded) until `/metrics` counts at least `count` requests in flight: requests whose
    /// head the server has read and whose response it has not yet written.
    func waitForRequestsInFlight(_ count: Int, timeout: Duration = .seconds(30)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        var last = "no answer"
        while ContinuousClock.now < deadline {
            if let connection = try? RawConnection(port: port) {
                connection.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let text = connection.receive(timeout: .seconds(5)).text
                let line = text.split(separator: "\n").first { $0.hasPrefix("gateway_http_requests_in_flight ") }
                last = line.map(String.init) ?? String(text.prefix(300))
                if let value = line.flatMap({ Double($0.split(separator: " ").last ?? "") }), value >= Double(count) { return true }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("requests in flight never reached \(count): \(last); log: \(output.suffix(1500))")
        return false
    }
}
