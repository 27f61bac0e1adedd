import BlockingWork
import Foundation
import PostgresTestServer
import Synchronization
import Testing

/// Two `gateway serve` replicas on one PostgreSQL outbox, delivering to one receiver process.
@Suite("Notifications across replicas", .blocksThreads)
struct NotificationReplicaTests {
    static func temporaryLog() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("receiver-\(UUID().uuidString).jsonl")
    }

    static func environment(_ receiver: NotificationReceiver, _ more: [String: String] = [:]) -> [String: String] {
        [
            "GATEWAY_MERCHANT_TESTMERCHANT_NOTIFICATIONS_SECRET": NotificationDeliveryTests.secret,
            "GATEWAY_MERCHANT_TESTMERCHANT_NOTIFICATIONS_URL": receiver.url + "/hook",
        ].merging(more) { $1 }
    }

    @Test("happy path: transactions on both replicas are each notified exactly once")
    func eachOnce() async throws {
        let receiver = try await NotificationReceiver(secret: NotificationDeliveryTests.secret, log: Self.temporaryLog())
        defer { receiver.stop() }
        let cluster = try await ReplicaCluster(
            replicas: 2,
            storeURL: try await PostgresTestServer.shared().createDatabase(),
            environment: Self.environment(receiver)
        )
        defer { cluster.stop() }
        let ports = cluster.replicas.map(\.port)
        for index in 0..<40 {
            let sent = try await ReplicaCluster.send(
                port: ports[index % 2],
                "/order/twice-\(index)/transaction/1",
                body: ReplicaCluster.cardBody(amount: "56.56")
            )
            #expect(sent.status == 201)
        }
        let arrivals = try await receiver.waitForDistinct(40)
        #expect(Set(arrivals.map(\.id)).count == 40)
        // A second sender would have leased the 40 while they were pending, and sent them at once.
        // Each replica now commits one more, which wakes its loop to lease and send: once both
        // have arrived, each replica has been through a lease and a send after the 40.
        for (index, port) in ports.enumerated() {
            let sent = try await ReplicaCluster.send(port: port, "/order/last-\(index)/transaction/1", body: ReplicaCluster.cardBody(amount: "56.56"))
            #expect(sent.status == 201)
        }
        let all = try await receiver.waitForDistinct(42)
        #expect(Set(all.map(\.id)).count == 42)
        #expect(all.count == 42, "sent twice: \(Dictionary(grouping: all, by: \.id).filter { $0.value.count > 1 }.keys.sorted())")
        #expect(all.allSatisfy { $0.secretMatches && $0.attempt == "1" })
    }

    @Test("a replica killed mid-delivery loses nothing: the other takes over its leases")
    func replicaKilledMidRun() async throws {
        // A slow receiver, so the killed replica has notifications in flight.
        let receiver = try await NotificationReceiver(secret: NotificationDeliveryTests.secret, log: Self.temporaryLog(), delayMilliseconds: 300)
        defer { receiver.stop() }
        let cluster = try await ReplicaCluster(
            replicas: 2,
            storeURL: try await PostgresTestServer.shared().createDatabase(),
            environment: Self.environment(receiver, ["GATEWAY_NOTIFICATIONS_TIMEOUT_SECONDS": "2"])
        )
        defer { cluster.stop() }
        let ports = cluster.replicas.map(\.port)
        var acknowledged: Set<String> = []
        for index in 0..<60 {
            // After 30, the first replica is gone: the rest go to the second.
            if index == 30 { kill(cluster.replicas[0].process.processIdentifier, SIGKILL) }
            let port = index < 30 ? ports[index % 2] : ports[1]
            let sent = try await ReplicaCluster.send(port: port, "/order/kill-\(index)/transaction/1", body: ReplicaCluster.cardBody(amount: "56.56"))
            if sent.status == 201 { acknowledged.insert("kill-\(index)/1") }
        }
        #expect(acknowledged.count >= 45)
        let deadline = ContinuousClock.now + .seconds(90)
        var arrived: Set<String> = []
        while !acknowledged.isSubset(of: arrived), ContinuousClock.now < deadline {
            arrived = Set(receiver.arrivals.compactMap { NotificationDeliveryTests.identifiers($0.body) })
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(acknowledged.subtracting(arrived).isEmpty, "never notified: \(acknowledged.subtracting(arrived).sorted())")
        // Nothing stays pending: a lease the dead replica held expired and the other replica
        // delivered it (`gateway notifications list`, as an operator would look).
        var pending = ""
        let environment = ["GATEWAY_STORE_URL": cluster.storeURL, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]
        while ContinuousClock.now < deadline {
            let listed = try Gateway.run(
                ["notifications", "list", "--status", "pending"],
                directory: ServeCommandTests.packageRoot,
                environment: environment
            )
            pending = listed.stdout + listed.stderr
            if listed.status == 0, pending.hasPrefix("no notifications") { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(pending.hasPrefix("no notifications"), "still pending: \(pending.prefix(500))")
        let delivered = try Gateway.run(
            ["notifications", "list", "--status", "delivered", "--limit", "500"],
            directory: ServeCommandTests.packageRoot,
            environment: environment
        )
        let listedLines = delivered.stdout.split(separator: "\n")
        #expect(listedLines.first?.hasPrefix("id\tstatus\t") == true, "a header row names the columns")
        #expect(listedLines.dropFirst().count == acknowledged.count)
        // A repeat is a notification the dead replica had in flight, sent again under its own id.
        for (id, copies) in Dictionary(grouping: receiver.arrivals, by: \.id) where copies.count > 1 {
            #expect(Set(copies.map { NotificationDeliveryTests.identifiers($0.body) }).count == 1, "id \(id)")
        }
    }
}
