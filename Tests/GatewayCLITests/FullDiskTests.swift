import BlockingWork
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `gateway serve` with its SQLite store on a 4 MB file system that fills up: payments past the
/// limit answer 503 SERVER_BUSY with Retry-After (a retry elsewhere or later is safe), readiness
/// says NOT_READY and why, a metric counts the refusals and the log says so a few times rather
/// than once per request; once space is freed, readiness's own write finds it and the gateway is
/// READY and records again, with every acknowledged payment still there and the file whole.
/// Mounting a file system needs root (CI runs as root); elsewhere the test is skipped.
@Suite("A full disk under the SQLite store", .blocksThreads, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
    static let authorization =
        "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString()

    @Test("a full disk answers SERVER_BUSY and NOT_READY until space is freed; nothing acknowledged is lost")
    func fullDisk() async throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("full-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        #expect(try Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path) == 0, "cannot mount a tmpfs")
        defer {
            _ = try? Self.run("/bin/umount", mountPoint.path)
            try? FileManager.default.removeItem(at: mountPoint)
        }
        // Half the file system is taken by a file that is deleted later: the space that comes back.
        let ballast = mountPoint.appendingPathComponent("ballast")
        try Data(repeating: 0, count: 2 << 20).write(to: ballast)
        let store = mountPoint.appendingPathComponent("store.sqlite")
        let server = try await RunningGateway(store: store)
        defer { server.process.terminate() }

        // Payments until the disk refuses one (a record is about ten pages of log: 2 MB holds ~50).
        var acknowledged: [String: Data] = [:]
        var refusal: (status: Int, body: Data, retryAfter: String?)?
        for index in 0..<400 where refusal == nil {
            let answer = try await Self.pay(server, order: "full-\(index)")
            if answer.status == 201 { acknowledged["full-\(index)"] = answer.body } else { refusal = answer }
        }
        let refused = try #require(refusal, "the disk never filled")
        #expect(acknowledged.count >= 10)
        #expect(refused.status == 503, "\(String(decoding: refused.body, as: UTF8.self))")
        #expect(Self.cause(refused.body) == "SERVER_BUSY")
        #expect(refused.retryAfter == "1")
        for index in 0..<20 {
            let answer = try await Self.pay(server, order: "refused-\(index)")
            #expect(answer.status == 503 && Self.cause(answer.body) == "SERVER_BUSY", "\(String(decoding: answer.body, as: UTF8.self))")
        }

        let notReady = try await Self.get(server, "/readyz")
        #expect(notReady.status == 503)
        let readiness = try JSONSerialization.jsonObject(with: notReady.body) as? [String: Any]
        #expect(readiness?["status"] as? String == "NOT_READY")
        #expect((readiness?["checks"] as? [String: Any])?["store"] as? String == "DOWN")
        #expect((readiness?["causes"] as? [String: Any])?["store"] as? String == "disk_full")
        let metrics = String(decoding: try await Self.get(server, "/metrics").body, as: UTF8.self)
        let refusals = metrics.split(separator: "\n").first {
            $0.hasPrefix("gateway_store_unavailable_total") && $0.contains(#"cause="disk_full""#) && $0.contains(#"operation="record""#)
        }
        #expect(refusals.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0 >= 21, "\(refusals ?? "no such metric")")
        let lines = server.output.split(separator: "\n").filter { $0.contains("store cannot write") }
        #expect(!lines.isEmpty && lines.count <= 4, "\(lines.count) log lines for 21 refused payments")

        // Space comes back: with no payment sent, readiness's own write finds it.
        try FileManager.default.removeItem(at: ballast)
        var ready = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !ready, ContinuousClock.now < deadline {
            ready = try await Self.get(server, "/readyz").status == 200
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ready, "readiness never came back once space was freed")
        let after = try await Self.pay(server, order: "after-space")
        #expect(after.status == 201)
        if after.status == 201 { acknowledged["after-space"] = after.body }

        for (order, body) in acknowledged {
            let stored = try await Self.get(server, "/api/rest/version/100/merchant/TESTMERCHANT/order/\(order)/transaction/1")
            #expect(stored.status == 200, "\(order) was acknowledged but is gone")
            #expect(stored.body == body)
        }
        #expect(await server.stop())
        let check = try Self.output(
            "/usr/bin/env",
            "python3",
            "-c",
            "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])",
            store.path
        )
        #expect(check.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }

    private static func pay(_ server: RunningGateway, order: String) async throws -> (status: Int, body: Data, retryAfter: String?) {
        var request = URLRequest(url: server.url("/merchant/TESTMERCHANT/order/\(order)/transaction/1"))
        request.httpMethod = "PUT"
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.httpBody = Data(
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, body, http?.value(forHTTPHeaderField: "Retry-After"))
    }

    private static func get(_ server: RunningGateway, _ path: String) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    private static func cause(_ body: Data) -> String? {
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["error"] as? [String: Any])?["cause"] as? String
    }

    /// Runs a command to its end; its exit status.
    @discardableResult
    private static func run(_ executable: String, _ arguments: String...) throws -> Int32 {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs a command to its end; what it wrote.
    private static func output(_ executable: String, _ arguments: String...) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
