import BlockingWork
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The store's promise, tested the hard way: the server is killed with SIGKILL in the middle of
/// a burst, restarted on the same file, and every transaction a client saw a 201 for is there,
/// byte for byte.
@Suite("Durability", .blocksThreads)
struct DurabilityTests {
    /// The responses clients received a 201 for, by order id.
    final class Acknowledgements: Sendable {
        private let bodies = Mutex<[String: Data]>([:])
        func add(_ order: String, _ body: Data) { bodies.withLock { $0[order] = body } }
        var count: Int { bodies.withLock { $0.count } }
        var all: [String: Data] { bodies.withLock { $0 } }
    }

    static let authorization =
        "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString()

    @Test("every acknowledged transaction survives SIGKILL during a burst of writes")
    func killDuringBurst() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString).sqlite")
        let server = try await RunningGateway(store: store)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 5
        let session = URLSession(configuration: configuration)
        let acknowledged = Acknowledgements()
        let requests = 400
        let port = server.port
        let pid = server.process.processIdentifier

        // 16 clients, each sending its share of the burst one request after another.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    for index in stride(from: client, to: requests, by: 16) {
                        var request = URLRequest(
                            url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT/order/burst-\(index)/transaction/1")
                        )
                        request.httpMethod = "PUT"
                        request.setValue(Self.authorization, forHTTPHeaderField: "Authorization")
                        request.httpBody = Data(
                            #"{"apiOperation":"PAY","order":{"amount":"\#(index + 1).00","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
                                .utf8
                        )
                        guard let (body, response) = try? await session.data(for: request),
                            (response as? HTTPURLResponse)?.statusCode == 201
                        else { return }  // cut off by the kill: never acknowledged, and the server is gone
                        acknowledged.add("burst-\(index)", body)
                    }
                }
            }
            group.addTask {
                // Kill once the burst is well under way, while requests are in flight (bounded wait).
                let deadline = ContinuousClock.now + .seconds(30)
                while acknowledged.count < 60, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(2))
                }
                kill(pid, SIGKILL)
            }
            try await group.waitForAll()
        }
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .uncaughtSignal)
        let seen = acknowledged.all
        #expect(seen.count >= 60)
        #expect(seen.count < requests, "the kill should have cut the burst short")

        let restarted = try await RunningGateway(store: store)
        defer { restarted.process.terminate() }
        for (order, body) in seen {
            var request = URLRequest(url: restarted.url("/merchant/TESTMERCHANT/order/\(order)/transaction/1"))
            request.setValue(Self.authorization, forHTTPHeaderField: "Authorization")
            let (stored, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(order) was acknowledged but is gone")
            #expect(stored == body)
        }
    }
}
