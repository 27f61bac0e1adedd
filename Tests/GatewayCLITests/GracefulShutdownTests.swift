import BlockingWork
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SIGTERM, as an orchestrator sends it: the server stops accepting, lets requests in flight
/// finish, closes the store and exits 0. No request is half done: each one either completed with
/// the result that is stored, or was refused before it was processed.
@Suite("Graceful shutdown", .blocksThreads)
struct GracefulShutdownTests {
    static let authorization = ServerLimitsTests.authorization

    static func cardBody(_ amount: String) -> String {
        #"{"apiOperation":"PAY","order":{"amount":"\#(amount)","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
    }

    /// The requests in flight here stall their bodies on purpose, longer than the slow-body limits
    /// allow a client: those limits are lifted so that only the shutdown decides.
    static let patientBodies = ["GATEWAY_SERVER_MIN_BODY_BYTES_PER_SECOND": "0", "GATEWAY_SERVER_BODY_TIMEOUT_SECONDS": "60"]

    static func stored(_ server: RunningGateway, order: String) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: server.url("/merchant/TESTMERCHANT/order/\(order)/transaction/1"))
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    @Test("a request in flight at SIGTERM completes and is stored; new connections are refused; exit 0")
    func inFlightRequestCompletes() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("shutdown-\(UUID().uuidString).sqlite")
        let server = try await RunningGateway(store: store, environment: Self.patientBodies)
        let body = Self.cardBody("12.34")
        let half = body.utf8.count / 2
        let request = ServerLimitsTests.put(order: "in-flight", body: body)
        let connection = try RawConnection(port: server.port)
        let sent = connection.send(String(request.dropLast(body.count - half)))
        // In flight once the server has read its head and started it: seen on /metrics, not guessed.
        #expect(try await server.waitForRequestsInFlight(1), "never started: sent \(sent), \(connection.descriptorState), port \(server.port)")

        kill(server.process.processIdentifier, SIGTERM)
        // The listener closes promptly; the process stays up for the request in flight.
        var refused = false
        let deadline = ContinuousClock.now + .seconds(5)
        while !refused, ContinuousClock.now < deadline {
            refused = (try? RawConnection(port: server.port)) == nil
            if !refused { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(refused, "the listener should be closed; log: \(server.output.suffix(2500))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.process.isRunning, "the server should wait for the request in flight")

        connection.send(String(body.dropFirst(half)))
        let response = connection.receive(timeout: .seconds(10)).text
        #expect(response.hasPrefix("HTTP/1.1 201"))
        #expect(await server.stop(timeout: .seconds(10)))
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        #expect(server.output.contains("store closed"))
        #expect(server.output.contains("shutdown complete"))

        let restarted = try await RunningGateway(store: store)
        defer { restarted.process.terminate() }
        let stored = try await Self.stored(restarted, order: "in-flight")
        #expect(stored.status == 200)
        #expect(response.hasSuffix(String(decoding: stored.body, as: UTF8.self)))
    }

    @Test("the drain is bounded: a request that never completes is cut off after the grace period")
    func boundedDrain() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("shutdown-bounded-\(UUID().uuidString).sqlite")
        let server = try await RunningGateway(
            store: store,
            environment: Self.patientBodies.merging(["GATEWAY_SERVER_SHUTDOWN_GRACE_PERIOD_SECONDS": "1"]) { $1 }
        )
        let body = Self.cardBody("1.00")
        let stuck = try RawConnection(port: server.port)
        stuck.send(String(ServerLimitsTests.put(order: "stuck", body: body).dropLast(10)))  // the body never ends
        #expect(try await server.waitForRequestsInFlight(1), "the request never started")
        #expect(await server.stop(timeout: .seconds(15)))
        // Timed by the server's own log, not this process's clock: a loaded test run can starve
        // the polling loop above for seconds after the server has long exited.
        let cutOff = Self.logLine(in: server.output, containing: "\"orderId\":\"stuck\"")
        let duration = cutOff.flatMap { $0["durationMs"] as? String }.flatMap(Double.init)
        #expect(duration.map { $0 < 6000 } == true, "the stuck request lasted \(duration ?? -1) ms; log: \(server.output.suffix(2500))")
        #expect(server.output.contains("store closed"))
        #expect(stuck.receive(timeout: .seconds(1)).closed)
    }

    /// The first JSON log line whose text contains `marker`, decoded.
    static func logLine(in output: String, containing marker: String) -> [String: Any]? {
        output.split(separator: "\n").first { $0.contains(marker) }.flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Per order: the body acknowledged with 201, or nil when the request failed.
    final class Outcomes: Sendable {
        private let results = Mutex<[String: Data?]>([:])
        func set(_ order: String, _ body: Data?) { results.withLock { $0[order] = body } }
        var acknowledged: Int { results.withLock { $0.values.filter { $0 != nil }.count } }
        var all: [String: Data?] { results.withLock { $0 } }
    }

    @Test("SIGTERM during a burst: every request either completed with its stored result or was refused")
    func burst() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("shutdown-burst-\(UUID().uuidString).sqlite")
        let server = try await RunningGateway(store: store)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration)
        let outcomes = Outcomes()
        let port = server.port
        let pid = server.process.processIdentifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    // Each client sends until the server refuses it, and then once more.
                    var refused = 0
                    var index = client
                    while refused < 2, index < 4000 {
                        let order = "burst-\(index)"
                        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT/order/\(order)/transaction/1"))
                        request.httpMethod = "PUT"
                        request.setValue(Self.authorization, forHTTPHeaderField: "Authorization")
                        request.httpBody = Data(Self.cardBody("\(index + 1).00").utf8)
                        if let (body, response) = try? await session.data(for: request),
                            (response as? HTTPURLResponse)?.statusCode == 201
                        {
                            outcomes.set(order, body)
                        } else {
                            outcomes.set(order, nil)
                            refused += 1
                        }
                        index += 16
                    }
                }
            }
            group.addTask {
                let deadline = ContinuousClock.now + .seconds(30)
                while outcomes.acknowledged < 80, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(2))
                }
                kill(pid, SIGTERM)
            }
            try await group.waitForAll()
        }
        #expect(await server.stop(timeout: .seconds(30)))
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        #expect(server.output.contains("store closed"))

        let all = outcomes.all
        let acknowledged = all.compactMapValues { $0 }
        #expect(acknowledged.count >= 80)
        #expect(all.count > acknowledged.count, "the shutdown should have refused some requests")
        let restarted = try await RunningGateway(store: store)
        defer { restarted.process.terminate() }
        for (order, body) in all {
            let stored = try await Self.stored(restarted, order: order)
            if let body {
                #expect(stored.status == 200, "\(order) was acknowledged but is not stored")
                #expect(stored.body == body, "\(order) is stored with another result than the client got")
            } else {
                #expect(stored.status == 404, "\(order) failed for the client but was processed")
            }
        }
    }
}
