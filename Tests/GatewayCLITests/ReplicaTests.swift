import BlockingWork
import Foundation
import PostgresTestServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two `gateway serve` processes on one PostgreSQL database behave as one gateway.
@Suite("Replicas sharing PostgreSQL", .blocksThreads)
struct ReplicaTests {
    @Test("a token accepted by one replica is a replay at the other; an identical retry there gets the stored response")
    func replayAndRetryAcrossReplicas() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let (a, b) = (cluster.replicas[0].port, cluster.replicas[1].port)
        let body = try ReplicaCluster.tokenBody()

        let first = try await ReplicaCluster.send(port: a, "/order/r-1/transaction/1", body: body)
        #expect(first.status == 201)
        let retry = try await ReplicaCluster.send(port: b, "/order/r-1/transaction/1", body: body)
        #expect(retry.status == 201)
        #expect(retry.body == first.body)
        let replay = try await ReplicaCluster.send(port: b, "/order/r-2/transaction/1", body: body)
        #expect(replay.status == 400)
        #expect(String(decoding: replay.body, as: UTF8.self).contains("REPLAYED"))
        let read = try await ReplicaCluster.send(port: b, "/order/r-1/transaction/1")
        #expect(read.body == first.body)
    }

    @Test("a token accepted by one replica is a replay at the other in upper case, mixed case and re-encrypted")
    func respelledReplayAcrossReplicas() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let (a, b) = (cluster.replicas[0].port, cluster.replicas[1].port)
        let id: [UInt8] = [0xAB, 0xCD, 0xEF, 0xFA] + (0..<28).map { _ in UInt8.random(in: 0xA0...0xFF) }
        let body = try ReplicaCluster.tokenBody(transactionId: id)
        let first = try await ReplicaCluster.send(port: a, "/order/case-0/transaction/1", body: body)
        #expect(first.status == 201)
        let copies = [
            try ReplicaCluster.tokenBody(transactionId: id, spelling: { $0.uppercased() }),
            try ReplicaCluster.tokenBody(transactionId: id, spelling: { $0.prefix(8).uppercased() + $0.dropFirst(8) }),
            try ReplicaCluster.tokenBody(transactionId: id),
        ]
        for (index, copy) in copies.enumerated() {
            let replay = try await ReplicaCluster.send(port: index % 2 == 0 ? b : a, "/order/case-\(index + 1)/transaction/1", body: copy)
            #expect(replay.status == 400, "copy \(index)")
            #expect(String(decoding: replay.body, as: UTF8.self).contains("REPLAYED"), "copy \(index)")
        }
    }

    @Test("the same token sent to both replicas at once is accepted exactly once")
    func simultaneousTokenOnBothReplicas() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let ports = cluster.replicas.map(\.port)
        for round in 0..<5 {
            let body = try ReplicaCluster.tokenBody()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, port) in ports.enumerated() {
                    group.addTask {
                        try await ReplicaCluster.send(port: port, "/order/s-\(round)-\(index)/transaction/1", body: body).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201, 400], "round \(round): \(statuses)")
        }
    }

    @Test("captures split across both replicas at once never exceed the authorized amount")
    func concurrentCapturesAcrossReplicas() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let ports = cluster.replicas.map(\.port)
        let authorization = try await ReplicaCluster.send(
            port: ports[0],
            "/order/race/transaction/auth",
            body: ReplicaCluster.cardBody(operation: "AUTHORIZE", amount: "100.00")
        )
        #expect(authorization.status == 201)

        // Many small captures from 16 clients at once, so the replicas' read-decide-write windows
        // overlap often.
        let results = try await ReplicaCluster.raceCaptures(order: "race", count: 160, clients: 16, ports: ports)
        let captured = results.filter { $0.status == 201 && $0.result == "SUCCESS" }.count
        let statuses = Set(results.map(\.status))
        #expect(captured == 100, "statuses: \(results.map(\.status))")
        #expect(statuses.isSubset(of: [201, 400, 409]), "statuses: \(statuses)")
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: ports[1], "/order/race").body)
        #expect(order["totalCapturedAmount"] as? Double == Double(captured))
        #expect((order["totalCapturedAmount"] as? Double ?? 101) <= 100)
        #expect((order["transaction"] as? [Any])?.count == captured + 1)
    }

    /// The responses clients received a 201 for, by order id.
    final class Acknowledgements: Sendable {
        private let bodies = Mutex<[String: Data]>([:])
        func add(_ order: String, _ body: Data) { bodies.withLock { $0[order] = body } }
        var count: Int { bodies.withLock { $0.count } }
        var all: [String: Data] { bodies.withLock { $0 } }
    }

    @Test("one replica killed with SIGKILL mid-burst loses no acknowledged transaction")
    func killOneReplicaMidBurst() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let ports = cluster.replicas.map(\.port)
        let victim = cluster.replicas[0].process.processIdentifier
        let acknowledged = Acknowledgements()
        let requests = 400

        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    for index in stride(from: client, to: requests, by: 16) {
                        let order = "burst-\(index)"
                        guard
                            let response = try? await ReplicaCluster.send(
                                port: ports[client % 2],
                                "/order/\(order)/transaction/1",
                                body: ReplicaCluster.cardBody(amount: "\(index + 1).00")
                            ),
                            response.status == 201
                        else {
                            if client % 2 == 0 { return }  // the killed replica's clients stop
                            continue
                        }
                        acknowledged.add(order, response.body)
                    }
                }
            }
            group.addTask {
                let deadline = ContinuousClock.now + .seconds(30)
                while acknowledged.count < 60, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(2))
                }
                kill(victim, SIGKILL)
            }
            try await group.waitForAll()
        }
        cluster.replicas[0].process.waitUntilExit()
        #expect(cluster.replicas[0].process.terminationReason == .uncaughtSignal)
        let seen = acknowledged.all
        #expect(seen.count >= 60)
        #expect(seen.count < requests, "the kill should have cut the burst short")
        for (order, body) in seen {
            let stored = try await ReplicaCluster.send(port: ports[1], "/order/\(order)/transaction/1")
            #expect(stored.status == 200, "\(order) was acknowledged but is gone")
            #expect(stored.body == body)
        }
    }

    @Test("a server that turned read-only (a demoted primary) gets SERVER_BUSY, not a failure, until writes work again")
    func demotedServer() async throws {
        let server = try await PostgresTestServer.shared()
        let database = try await server.createNamedDatabase()
        let cluster = try await ReplicaCluster(replicas: 1, storeURL: server.url(database: database))
        defer { cluster.stop() }
        let port = cluster.replicas[0].port
        let warm = try await ReplicaCluster.send(port: port, "/order/ro-0/transaction/1", body: ReplicaCluster.cardBody(amount: "1.00"))
        #expect(warm.status == 201)

        // What a failover does to the connections of the old primary: they end, and new ones
        // reach a server in recovery, where every write fails with read_only_sql_transaction.
        func reconnect(readOnly: Bool) async throws {
            try await server.psql(
                "ALTER DATABASE \(database) SET default_transaction_read_only = \(readOnly ? "on" : "off")",
                database: "postgres"
            )
            try await server.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'",
                database: "postgres"
            )
        }
        try await reconnect(readOnly: true)
        for index in 1...4 {
            let refused = try await ReplicaCluster.send(port: port, "/order/ro-\(index)/transaction/1", body: ReplicaCluster.cardBody(amount: "1.00"))
            let cause = (ReplicaCluster.json(refused.body)["error"] as? [String: Any])?["cause"] as? String
            #expect(refused.status == 503 && cause == "SERVER_BUSY", "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(refused.retryAfter == "1")
        }
        try await reconnect(readOnly: false)
        var recovered = false
        for _ in 0..<40 where !recovered {
            let retry = try await ReplicaCluster.send(port: port, "/order/ro-1/transaction/1", body: ReplicaCluster.cardBody(amount: "1.00"))
            recovered = retry.status == 201
            if !recovered { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(recovered, "no write succeeded once the server took writes again")
        #expect(!cluster.replicas[0].output.contains("SERVER_FAILED"))
    }

    @Test("while PostgreSQL restarts under light load the gateway answers SERVER_BUSY, then recovers by itself")
    func databaseRestart() async throws {
        let server = try await PostgresTestServer.started()
        defer { server.destroy() }
        let cluster = try await ReplicaCluster(replicas: 1, storeURL: try await server.createDatabase(), storeTimeoutSeconds: 2)
        defer { cluster.stop() }
        let port = cluster.replicas[0].port
        // The light load starts once the replica has connected and migrated.
        #expect(try await ReplicaCluster.warmUp(port: port, order: "restart-warm-up"), "the replica never answered 201 before the restart")
        let phase = Shared("before")
        let log = Shared<[(phase: String, status: Int, cause: String?, retryAfter: String?)]>([])
        let readiness = Shared<[(phase: String, status: Int)]>([])

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Light load: one request after another, until well after the restart.
                var index = 0
                while phase.withLock({ $0 }) != "done" {
                    index += 1
                    let current = phase.withLock { $0 }
                    let response = try await ReplicaCluster.send(
                        port: port,
                        "/order/restart-\(index)/transaction/1",
                        body: ReplicaCluster.cardBody(amount: "1.00")
                    )
                    let cause = (ReplicaCluster.json(response.body)["error"] as? [String: Any])?["cause"] as? String
                    log.withLock { $0.append((current, response.status, cause, response.retryAfter)) }
                    let probed = phase.withLock { $0 }
                    let ready = await ReplicaCluster.readiness(port: port)
                    readiness.withLock { $0.append((probed, ready)) }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            group.addTask {
                // Each phase lasts until the client has seen it (bounded), not a fixed time: under
                // the full suite a request can take longer than a fixed phase.
                func waitFor(_ seen: @escaping @Sendable ((phase: String, status: Int, cause: String?, retryAfter: String?)) -> Bool) async throws {
                    let deadline = ContinuousClock.now + .seconds(30)
                    while ContinuousClock.now < deadline, !log.withLock({ $0.contains(where: seen) }) {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                try await waitFor { $0.phase == "before" && $0.status == 201 }
                phase.withLock { $0 = "down" }
                try server.stop()
                try await waitFor { $0.phase == "down" && $0.status == 503 && $0.cause == "SERVER_BUSY" }
                let probed = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < probed, !readiness.withLock({ $0.contains { $0.phase == "down" && $0.status == 503 } }) {
                    try await Task.sleep(for: .milliseconds(50))
                }
                try server.start()
                phase.withLock { $0 = "restarted" }
                // Recovered once a request made after the restart succeeds (bounded wait).
                let deadline = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < deadline,
                    !log.withLock({ $0.contains { $0.phase == "restarted" && $0.status == 201 } })
                {
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await Task.sleep(for: .seconds(1))
                phase.withLock { $0 = "done" }
            }
            try await group.waitForAll()
        }
        let entries = log.withLock { $0 }
        // Before the outage the gateway answers; on a machine busy with other tests a request may
        // outlast the short store timeout, and then it must be a clean SERVER_BUSY, never a failure.
        let before = entries.filter { $0.phase == "before" }
        #expect(before.filter { $0.status == 201 }.count * 2 >= before.count, "\(before.map(\.status))")
        #expect(before.allSatisfy { $0.status == 201 || ($0.status == 503 && $0.cause == "SERVER_BUSY") }, "\(before.map(\.status))")
        let down = entries.filter { $0.phase == "down" }
        #expect(!down.isEmpty)
        #expect(down.contains { $0.status == 503 && $0.cause == "SERVER_BUSY" }, "\(down.map(\.status))")
        // Never a failure: a request the outage caught is SERVER_BUSY, with when to retry.
        #expect(down.allSatisfy { [201, 503].contains($0.status) }, "\(down.map(\.status))")
        #expect(entries.filter { $0.status == 503 }.allSatisfy { $0.retryAfter == "1" })
        // Readiness follows the store: not ready while it is down, ready again after.
        let ready = readiness.withLock { $0 }
        #expect(ready.contains { $0.phase == "down" && $0.status == 503 }, "\(ready)")
        #expect(ready.last?.status == 200, "\(ready)")
        #expect(entries.filter { $0.phase == "restarted" }.contains { $0.status == 201 }, "no recovery after the restart")
        #expect(entries.last?.status == 201)
        #expect(cluster.replicas[0].process.isRunning)
    }
}
