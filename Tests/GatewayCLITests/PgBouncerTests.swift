import BlockingWork
import Foundation
import PostgresTestServer
import Testing

/// Two gateway replicas behind one PgBouncer (Debian's 1.18), with two server connections for all
/// their clients: in transaction pooling mode with `pool_mode=transaction` in the store URL (what
/// Deploy/README recommends), and in session pooling mode with the bouncer told to drop the
/// `statement_timeout` the gateway sends at connection start.
@Suite("Replicas behind PgBouncer", .blocksThreads)
struct PgBouncerTests {
    @Test(
        "authorize, retry, replay and racing captures behave as on PostgreSQL itself",
        arguments: [
            ("transaction", "?pool_mode=transaction", [String]()),
            ("session", "", ["statement_timeout"]),
        ]
    )
    func pooling(mode: String, urlParameters: String, ignored: [String]) async throws {
        let server = try await PostgresTestServer.shared()
        let database = try await server.createNamedDatabase()
        let bouncer = try PgBouncerTestServer(for: server, poolMode: mode, poolSize: 2, ignoredStartupParameters: ignored)
        defer { bouncer.stop() }
        // Session pooling gives each client connection a server connection of its own: two
        // replicas of one connection each fit in two.
        let cluster = try await ReplicaCluster(
            replicas: 2,
            storeURL: bouncer.url(database: database) + urlParameters,
            environment: mode == "session" ? ["GATEWAY_STORE_MAX_CONNECTIONS": "1"] : [:]
        )
        defer { cluster.stop() }
        let (a, b) = (cluster.replicas[0].port, cluster.replicas[1].port)

        // In transaction mode the record call is sent unnamed: the next transaction on a client
        // connection may run on the other server connection, where a named one is unknown.
        let token = try ReplicaCluster.tokenBody()
        let first = try await ReplicaCluster.send(port: a, "/order/pb-1/transaction/1", body: token)
        #expect(first.status == 201, "\(String(decoding: first.body, as: UTF8.self)) \(bouncer.log)")
        let retry = try await ReplicaCluster.send(port: b, "/order/pb-1/transaction/1", body: token)
        #expect(retry.status == 201)
        #expect(retry.body == first.body)
        let replay = try await ReplicaCluster.send(port: b, "/order/pb-2/transaction/1", body: token)
        #expect(replay.status == 400)
        #expect(String(decoding: replay.body, as: UTF8.self).contains("REPLAYED"))

        let authorization = try await ReplicaCluster.send(
            port: a,
            "/order/pb-race/transaction/auth",
            body: ReplicaCluster.cardBody(operation: "AUTHORIZE", amount: "20.00")
        )
        #expect(authorization.status == 201)
        let results = try await ReplicaCluster.raceCaptures(order: "pb-race", count: 40, clients: 8, ports: [a, b])
        let statuses = results.map(\.status)
        #expect(results.filter { $0.status == 201 && $0.result == "SUCCESS" }.count == 20, "\(statuses)")
        // 409 is the gateway's LOCK_FAILURE (another replica moved the order first): retryable.
        #expect(Set(statuses).isSubset(of: [201, 400, 409]), "\(statuses) \(bouncer.log.suffix(2000))")
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: b, "/order/pb-race").body)
        #expect(order["totalCapturedAmount"] as? Double == 20)

        // Nothing the bouncer had to refuse or could not find.
        #expect(!bouncer.log.contains("unsupported startup parameter"))
        #expect(!bouncer.log.contains("prepared statement"))
    }
}
