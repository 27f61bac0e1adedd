import BlockingWork
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 59, finding 6: one merchant's receiver that never answers may hold only part of the
/// delivery loop's slots; another merchant's notifications still go at once. Two merchants on one
/// `gateway serve`, a silent receiver and a good one, all over real sockets.
@Suite("Notification fairness", .blocksThreads)
struct NotificationFairnessTests {
    static let secret = "webhook-secret-0123456789abcdef"
    static let slowPassword = "0123456789abcdef0123456789abcdef"
    static let goodPassword = "fedcba9876543210fedcba9876543210"

    /// Accepts connections and never answers, holding each open until `stop()`.
    final class SilentReceiver: Sendable {
        let port: Int
        private let descriptor: Int32
        private let accepted = Mutex<[Int32]>([])

        init() throws {
            let reserved = try ReservedPort()
            port = reserved.port
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            reserved.release()
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let listening = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(descriptor, 512) == 0
                }
            }
            guard listening else { throw CocoaError(.fileReadUnknown) }
            Thread { [self] in
                while case let connection = accept(descriptor, nil, nil), connection >= 0 {
                    accepted.withLock { $0.append(connection) }
                }
            }.start()
        }

        /// Connections accepted so far (each a notification attempt left hanging).
        var connections: Int { accepted.withLock { $0.count } }

        func stop() {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
            for connection in accepted.withLock({ $0 }) { close(connection) }
        }
    }

    static func configuration(slowURL: String, goodURL: String) throws -> URL {
        let json = """
            {"mode": "sandbox", "merchants": ["SLOWSHOP", "GOODSHOP"],
             "merchant": {
               "SLOWSHOP": {"apiPasswords": ["\(slowPassword)"], "notifications": {"url": "\(slowURL)", "secret": "\(secret)"}},
               "GOODSHOP": {"apiPasswords": ["\(goodPassword)"], "notifications": {"url": "\(goodURL)", "secret": "\(secret)"}}}}
            """
        let file = NotificationDeliveryTests.temporary("fairness").appendingPathExtension("json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func pay(_ port: Int, merchant: String, password: String, order: String) async throws -> Int {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/\(merchant)/order/\(order)/transaction/1"))
        request.httpMethod = "PUT"
        request.setValue("Basic " + Data("merchant.\(merchant):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.httpBody = Data(NotificationDeliveryTests.pay().utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test("notifications to a receiver that never answers: another merchant's receiver still gets its own within 2 s", arguments: [40, 160])
    func silentReceiverDelaysOnlyItsOwn(hanging: Int) async throws {
        let silent = try SilentReceiver()
        defer { silent.stop() }
        let good = try await NotificationReceiver(
            secret: Self.secret,
            log: NotificationDeliveryTests.temporary("good-receiver").appendingPathExtension("jsonl")
        )
        defer { good.stop() }
        let config = try Self.configuration(slowURL: "http://127.0.0.1:\(silent.port)/hook", goodURL: good.url + "/hook")
        let server = try await RunningGateway(
            store: NotificationDeliveryTests.temporary("fairness").appendingPathExtension("sqlite"),
            arguments: ["--config", config.path]
        )
        defer { server.process.terminate() }

        for index in 0..<hanging {
            #expect(try await Self.pay(server.port, merchant: "SLOWSHOP", password: Self.slowPassword, order: "slow-\(index)") == 201)
        }
        // The silent receiver holds the attempts it accepted: the slots they take are busy.
        let deadline = ContinuousClock.now + .seconds(10)
        while silent.connections < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(silent.connections >= 4, "the silent receiver got \(silent.connections) attempts; log: \(server.output.suffix(1500))")

        #expect(try await Self.pay(server.port, merchant: "GOODSHOP", password: Self.goodPassword, order: "good-1") == 201)
        let paid = Date().timeIntervalSince1970
        let arrival = try #require(try await good.waitForDistinct(1, timeout: .seconds(90)).first, "never delivered")
        let wait = arrival.receivedAt - paid
        print("\(hanging) queued: the good receiver waited \(String(format: "%.3f", wait)) s behind \(silent.connections) hanging attempts")
        #expect(wait < 2, "the good receiver waited \(wait) s behind the silent one")
        // At most three quarters of the 16 slots: the rest are kept for other merchants.
        #expect(silent.connections <= 12, "the silent receiver's merchant held \(silent.connections) slots")
    }
}
