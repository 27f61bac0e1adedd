import BlockingWork
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Webhook notifications end to end: `gateway serve` and `scripts/notification-receiver` as two
/// processes talking over real sockets.
@Suite("Notification delivery", .blocksThreads)
struct NotificationDeliveryTests {
    static let secret = "webhook-secret-0123456789abcdef"
    static let authorization =
        "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString()

    /// The transactions clients received a 201 for.
    final class Acknowledged: Sendable {
        private let keys = Mutex<Set<String>>([])
        func add(_ key: String) { keys.withLock { _ = $0.insert(key) } }
        var count: Int { keys.withLock { $0.count } }
        var all: Set<String> { keys.withLock { $0 } }
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    static func settings(url: String? = nil, _ more: [String: String] = [:]) -> [String: String] {
        var environment = ["GATEWAY_MERCHANT_TESTMERCHANT_NOTIFICATIONS_SECRET": secret]
        if let url { environment["GATEWAY_MERCHANT_TESTMERCHANT_NOTIFICATIONS_URL"] = url }
        return environment.merging(more) { $1 }
    }

    /// PUTs a transaction; the status and body.
    static func put(_ port: Int, _ path: String, _ body: String) async throws -> (Int, Data) {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT\(path)"))
        request.httpMethod = "PUT"
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func get(_ port: Int, _ path: String) async throws -> Data {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT\(path)"))
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        return try await URLSession.shared.data(for: request).0
    }

    static func pay(amount: String = "56.56", operation: String = "PAY", notificationUrl: String? = nil) -> String {
        let url = notificationUrl.map { #","notificationUrl":"\#($0)""# } ?? ""
        return
            #"{"apiOperation":"\#(operation)","order":{"amount":"\#(amount)","currency":"USD"\#(url)},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
    }

    /// The order and transaction ids a notification body names.
    static func identifiers(_ body: String) -> String? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let order = json["order"] as? [String: Any], let transaction = json["transaction"] as? [String: Any]
        else { return nil }
        return "\(order["id"] ?? "")/\(transaction["id"] ?? "")"
    }

    @Test("each transaction's body is Retrieve Transaction's, with the headers; the order's URL overrides the merchant's; the secret is never logged")
    func bodyAndHeaders() async throws {
        let receiver = try await NotificationReceiver(secret: Self.secret, log: Self.temporary("receiver").appendingPathExtension("jsonl"))
        defer { receiver.stop() }
        let server = try await RunningGateway(
            store: Self.temporary("notify").appendingPathExtension("sqlite"),
            environment: Self.settings(url: receiver.url + "/merchant")
        )
        defer { server.process.terminate() }

        #expect(try await Self.put(server.port, "/order/n1/transaction/1", Self.pay()).0 == 201)
        #expect(
            try await Self.put(server.port, "/order/n2/transaction/1", Self.pay(operation: "AUTHORIZE", notificationUrl: receiver.url + "/order")).0
                == 201
        )
        let capture = #"{"apiOperation":"CAPTURE","transaction":{"amount":"56.56","currency":"USD"}}"#
        #expect(try await Self.put(server.port, "/order/n2/transaction/2", capture).0 == 201)

        let arrivals = try await receiver.waitForDistinct(3)
        try #require(arrivals.count == 3, "arrived: \(arrivals.map(\.id)); log: \(server.output.suffix(1500))")
        for arrival in arrivals {
            #expect(arrival.secretMatches)
            #expect(arrival.contentType == "application/json")
            #expect(arrival.attempt == "1")
            #expect(!arrival.isRepeat)
        }
        let byTransaction = Dictionary(uniqueKeysWithValues: arrivals.compactMap { arrival in Self.identifiers(arrival.body).map { ($0, arrival) } })
        #expect(byTransaction["n1/1"]?.path == "/merchant")
        #expect(byTransaction["n2/1"]?.path == "/order")
        #expect(byTransaction["n2/2"]?.path == "/order", "a CAPTURE goes where its order's AUTHORIZE went")
        // Ids in commit order, so the order's notifications arrive in transaction order.
        #expect(try #require(Int(byTransaction["n2/1"]?.id ?? "")) < (Int(byTransaction["n2/2"]?.id ?? "") ?? 0))
        for (key, arrival) in byTransaction {
            let parts = key.split(separator: "/")
            let retrieved = try await Self.get(server.port, "/order/\(parts[0])/transaction/\(parts[1])")
            #expect(arrival.body == String(decoding: retrieved, as: UTF8.self), "\(key): the body is Retrieve Transaction's")
        }
        #expect(try await server.waitForMetric("gateway_notifications_delivered_total", atLeast: 3) == 3)
        #expect(!server.output.contains(Self.secret), "the notification secret was logged")
        #expect(server.output.contains("notification delivered"))
    }

    @Test("a receiver down for a while, then up: every notification arrives, its failed attempts counted and backed off")
    func receiverDownThenUp() async throws {
        let reserved = try ReservedPort()
        defer { reserved.release() }
        let port = reserved.port
        let server = try await RunningGateway(
            store: Self.temporary("notify-down").appendingPathExtension("sqlite"),
            environment: Self.settings(
                url: "http://127.0.0.1:\(port)/hook",
                ["GATEWAY_NOTIFICATIONS_INITIAL_RETRY_SECONDS": "1", "GATEWAY_NOTIFICATIONS_MAX_RETRY_SECONDS": "2"]
            )
        )
        defer { server.process.terminate() }
        for index in 0..<5 {
            #expect(try await Self.put(server.port, "/order/down-\(index)/transaction/1", Self.pay()).0 == 201)
        }
        let refused = #"gateway_notification_attempt_failures_total{cause="connection"}"#
        #expect(try await server.waitForMetric(refused, atLeast: 5) ?? 0 >= 5)
        let firstAttempts = ContinuousClock.now
        // Backoff: each notification's third attempt comes at least 1.5 s after its first (retries
        // after 0.5 to 1 s, then 1 to 2 s), not a poll (50 ms) later: 15 failures took that long.
        let failures = try await server.waitForMetric(refused, atLeast: 15) ?? 0
        let elapsed = ContinuousClock.now - firstAttempts
        #expect(failures >= 15, "failed attempts: \(failures)")
        #expect(elapsed >= .seconds(1), "15 failed attempts within \(elapsed)")
        #expect(try await server.waitForMetric("gateway_notifications_pending", atLeast: 5) == 5)

        reserved.release()
        let receiver = try await NotificationReceiver(
            port: port,
            secret: Self.secret,
            log: Self.temporary("receiver").appendingPathExtension("jsonl")
        )
        defer { receiver.stop() }
        let arrivals = try await receiver.waitForDistinct(5, timeout: .seconds(30))
        #expect(Set(arrivals.map(\.id)).count == 5)
        #expect(arrivals.allSatisfy { (Int($0.attempt ?? "") ?? 0) >= 2 }, "attempts: \(arrivals.map(\.attempt))")
        #expect(try await server.waitForMetric("gateway_notifications_delivered_total", atLeast: 5) == 5)
        #expect(try await server.waitForMetric("gateway_notifications_pending", atLeast: 0) != nil)
    }

    @Test("SIGKILL while notifications are pending: after the restart every acknowledged transaction's notification arrives")
    func killWhilePending() async throws {
        let reserved = try ReservedPort()
        defer { reserved.release() }
        let port = reserved.port
        let store = Self.temporary("notify-kill").appendingPathExtension("sqlite")
        let environment = Self.settings(url: "http://127.0.0.1:\(port)/hook", ["GATEWAY_NOTIFICATIONS_INITIAL_RETRY_SECONDS": "1"])
        let server = try await RunningGateway(store: store, environment: environment)
        let acknowledged = Acknowledged()
        let serverPort = server.port
        let pid = server.process.processIdentifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<8 {
                group.addTask {
                    for index in stride(from: client, to: 400, by: 8) {
                        guard let (status, _) = try? await Self.put(serverPort, "/order/kill-\(index)/transaction/1", Self.pay()), status == 201
                        else { return }
                        acknowledged.add("kill-\(index)/1")
                    }
                }
            }
            group.addTask {
                let deadline = ContinuousClock.now + .seconds(30)
                while acknowledged.count < 40, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
                kill(pid, SIGKILL)
            }
            try await group.waitForAll()
        }
        server.process.waitUntilExit()
        let seen = acknowledged.all
        #expect(seen.count >= 40 && seen.count < 400)

        reserved.release()
        let receiver = try await NotificationReceiver(
            port: port,
            secret: Self.secret,
            log: Self.temporary("receiver").appendingPathExtension("jsonl")
        )
        defer { receiver.stop() }
        let restarted = try await RunningGateway(store: store, environment: environment)
        defer { restarted.process.terminate() }
        let deadline = ContinuousClock.now + .seconds(60)
        var arrived: Set<String> = []
        while !seen.isSubset(of: arrived), ContinuousClock.now < deadline {
            arrived = Set(receiver.arrivals.compactMap { Self.identifiers($0.body) })
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(seen.subtracting(arrived).isEmpty, "never notified: \(seen.subtracting(arrived).sorted().prefix(10))")
        // Each notification id stands for one transaction, whichever attempt carried it.
        var transactionById: [String: String] = [:]
        for arrival in receiver.arrivals {
            let key = Self.identifiers(arrival.body)
            #expect(transactionById[arrival.id, default: key ?? ""] == key)
            transactionById[arrival.id] = key
        }
    }

    @Test("production refuses plain http to loopback and a private address; nothing reaches the receiver")
    func productionRefusesInternalTargets() async throws {
        let receiver = try await NotificationReceiver(secret: Self.secret, log: Self.temporary("receiver").appendingPathExtension("jsonl"))
        defer { receiver.stop() }
        let server = try await RunningGateway(
            store: Self.temporary("notify-production").appendingPathExtension("sqlite"),
            environment: Self.settings(["GATEWAY_MODE": "production"])
        )
        defer { server.process.terminate() }
        #expect(try await Self.put(server.port, "/order/p1/transaction/1", Self.pay(notificationUrl: receiver.url + "/hook")).0 == 201)
        #expect(try await Self.put(server.port, "/order/p2/transaction/1", Self.pay(notificationUrl: "https://10.0.0.7/hook")).0 == 201)
        #expect(try await server.waitForMetric(#"gateway_notification_attempt_failures_total{cause="plain_http"}"#, atLeast: 1) == 1)
        #expect(try await server.waitForMetric(#"gateway_notification_attempt_failures_total{cause="internal_address"}"#, atLeast: 1) ?? 0 >= 1)
        // The log names the rule: the range the address is in.
        // The line is written after the metric moves: wait for it, bounded.
        let logged = ContinuousClock.now + .seconds(10)
        while !server.output.contains("resolves to an internal address: private"), ContinuousClock.now < logged {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(server.output.contains("resolves to an internal address: private"), "\(server.output.suffix(1500))")
        // Plain http is refused for good: failed at once, not retried.
        #expect(try await server.waitForMetric("gateway_notifications_failed_total", atLeast: 1) ?? 0 >= 1)
        // Both were refused before any connection (the counts above say so); the receiver saw none.
        #expect(receiver.arrivals.isEmpty)
    }

    @Test("operators: a notification failed past its horizon is listed, shown without its secret, and redelivered with its id")
    func operatorsRedeliver() async throws {
        let reserved = try ReservedPort()
        defer { reserved.release() }
        let port = reserved.port
        let store = Self.temporary("notify-operators").appendingPathExtension("sqlite")
        let server = try await RunningGateway(
            store: store,
            environment: Self.settings(url: "http://127.0.0.1:\(port)/hook", ["GATEWAY_NOTIFICATIONS_RETRY_HORIZON_SECONDS": "1"])
        )
        defer { server.process.terminate() }
        #expect(try await Self.put(server.port, "/order/ops-1/transaction/1", Self.pay()).0 == 201)
        #expect(try await server.waitForMetric("gateway_notifications_failed_total", atLeast: 1) == 1)

        let environment = ["GATEWAY_STORE_URL": "sqlite://\(store.path)", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]
        func gateway(_ arguments: [String]) throws -> Gateway.Result {
            try Gateway.run(["notifications"] + arguments, directory: ServeCommandTests.packageRoot, environment: environment)
        }
        let failed = try gateway(["list", "--status", "failed"])
        #expect(failed.status == 0, "\(failed.stderr)")
        let lines = failed.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("id\tstatus\tmerchant\t") == true, "the header row names the columns")
        let line = try #require(lines.dropFirst().first)
        let id = String(line.split(separator: "\t")[0])
        #expect(line.contains("ops-1") && line.contains("FAILED") && line.contains("connection"))
        let shown = try gateway(["show", id])
        #expect(shown.stdout.contains("status: FAILED") && shown.stdout.contains("url: http://127.0.0.1:\(port)/hook"))
        #expect(!shown.stdout.contains(Self.secret))
        #expect(try gateway(["show", "999999"]).status != 0)

        reserved.release()
        let receiver = try await NotificationReceiver(
            port: port,
            secret: Self.secret,
            log: Self.temporary("receiver").appendingPathExtension("jsonl")
        )
        defer { receiver.stop() }
        let redelivered = try gateway(["redeliver", id])
        #expect(redelivered.status == 0 && redelivered.stdout.contains("queued"))
        let arrivals = try await receiver.waitForDistinct(1, timeout: .seconds(20))
        #expect(arrivals.map(\.id) == [id])
        #expect(arrivals.first?.attempt == "1")
        #expect(try gateway(["list", "--status", "delivered"]).stdout.split(separator: "\n").dropFirst().first?.hasPrefix(id + "\t") == true)
    }

    @Test("sandbox: check-config prints the generated notification secret, the same on every run")
    func sandboxSecret() throws {
        let authority = Self.temporary("authority")
        let environment = ["GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": authority.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]
        let first = try Gateway.run(["check-config"], directory: ServeCommandTests.packageRoot, environment: environment)
        let second = try Gateway.run(["check-config"], directory: ServeCommandTests.packageRoot, environment: environment)
        #expect(first.status == 0)
        let line = try #require(first.stdout.split(separator: "\n").first { $0.contains("notification secret") })
        #expect(line.split(separator: " ").last?.count == 32)
        #expect(second.stdout == first.stdout)
    }
}
