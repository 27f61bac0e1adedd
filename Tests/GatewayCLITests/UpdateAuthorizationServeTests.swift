import BlockingWork
import Foundation
import PostgresTestServer
import Testing

/// UPDATE_AUTHORIZATION through `gateway serve` over a real socket: on SQLite (one process), and
/// on PostgreSQL with two replicas, the AUTHORIZE on one and its updates on the other.
@Suite("UPDATE_AUTHORIZATION on a live gateway", .blocksThreads)
struct UpdateAuthorizationServeTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static func update(_ amount: String, currency: String = "USD", extra: String = "") -> Data {
        Data(
            #"{"apiOperation":"UPDATE_AUTHORIZATION","transaction":{"amount":"\#(amount)","currency":"\#(currency)"\#(extra)}}"#.utf8
        )
    }

    static func field(_ json: [String: Any], _ path: String) -> Any? {
        var current: Any? = json
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    @Test("an authorization is updated up and down, declines change nothing, captures are held to the new total", arguments: Store.allCases)
    func lifecycle(store: Store) async throws {
        let cluster =
            switch store {
            case .sqlite:
                try await ReplicaCluster(
                    replicas: 1,
                    storeURL: "sqlite://" + FileManager.default.temporaryDirectory.appendingPathComponent("upd-\(UUID().uuidString).sqlite").path
                )
            case .postgres:
                try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
            }
        defer { cluster.stop() }
        // The AUTHORIZE on the first replica, every update on the last (the same one on SQLite).
        let (a, b) = (cluster.replicas[0].port, cluster.replicas[cluster.replicas.count - 1].port)
        let order = "/order/upd-\(store.rawValue)"
        func send(_ port: Int, _ transaction: String, _ body: Data? = nil) async throws -> (status: Int, json: [String: Any], body: Data) {
            let (status, data, _) = try await ReplicaCluster.send(
                port: port,
                "\(order)\(transaction.isEmpty ? "" : "/transaction/\(transaction)")",
                body: body
            )
            return (status, ReplicaCluster.json(data), data)
        }

        let auth = try await send(a, "auth", ReplicaCluster.cardBody(operation: "AUTHORIZE", amount: "100.00"))
        #expect(auth.status == 201)
        #expect(Self.field(auth.json, "order.status") as? String == "AUTHORIZED")

        let up = try await send(b, "u1", Self.update("150.00"))
        #expect(up.status == 201, "\(String(decoding: up.body, as: UTF8.self))")
        #expect(Self.field(up.json, "result") as? String == "SUCCESS")
        #expect(Self.field(up.json, "transaction.type") as? String == "AUTHORIZATION_UPDATE")
        #expect(Self.field(up.json, "transaction.amount") as? Double == 150)
        #expect(Self.field(up.json, "order.totalAuthorizedAmount") as? Double == 150)
        #expect(Self.field(up.json, "order.status") as? String == "AUTHORIZED")
        #expect(Self.field(up.json, "sourceOfFunds.provided.card.number") as? String == "512345xxxxxx0008")

        // An identical retry, at the other replica, is the stored answer byte for byte; the same
        // transaction id with another amount is refused.
        let retry = try await send(a, "u1", Self.update("150.00"))
        #expect(retry.status == 201 && retry.body == up.body)
        let reused = try await send(a, "u1", Self.update("151.00"))
        #expect(reused.status == 400)
        #expect(Self.field(reused.json, "error.field") as? String == "transaction.id")

        // 57.57 is the simulator's decline, for the new total as for any amount: nothing moves.
        let declined = try await send(b, "u2", Self.update("57.57"))
        #expect(declined.status == 201)
        #expect(Self.field(declined.json, "response.gatewayCode") as? String == "DECLINED")
        #expect(Self.field(declined.json, "order.totalAuthorizedAmount") as? Double == 150)

        let capture = try await send(a, "c1", ReplicaCluster.captureBody(amount: "120.00"))
        #expect(Self.field(capture.json, "order.status") as? String == "PARTIALLY_CAPTURED")
        let below = try await send(b, "u3", Self.update("119.99"))
        #expect(below.status == 400)
        #expect(Self.field(below.json, "error.field") as? String == "transaction.amount")
        let euros = try await send(b, "u4", Self.update("130.00", currency: "EUR"))
        #expect(euros.status == 400)
        #expect(Self.field(euros.json, "error.field") as? String == "transaction.currency")
        let unknown = try await send(b, "u5", Self.update("130.00", extra: #","colour":"red""#))
        #expect(unknown.status == 400)
        #expect(Self.field(unknown.json, "error.field") as? String == "transaction.colour")

        // Down to what was captured: the order is CAPTURED, and holds no authorization to update.
        let down = try await send(b, "u6", Self.update("120.00"))
        #expect(Self.field(down.json, "order.status") as? String == "CAPTURED")
        #expect(Self.field(down.json, "order.totalAuthorizedAmount") as? Double == 120)
        let closed = try await send(a, "u7", Self.update("200.00"))
        #expect(closed.status == 400)
        #expect(Self.field(closed.json, "error.field") as? String == "apiOperation")
        let more = try await send(a, "c2", ReplicaCluster.captureBody(amount: "0.01"))
        #expect(more.status == 400)

        // Retrieve Order and Retrieve Transaction, from either replica, show what was recorded.
        let retrieved = try await send(a, "")
        let types = (retrieved.json["transaction"] as? [[String: Any]])?.compactMap { Self.field($0, "transaction.type") as? String }
        #expect(types == ["AUTHORIZATION", "AUTHORIZATION_UPDATE", "AUTHORIZATION_UPDATE", "CAPTURE", "AUTHORIZATION_UPDATE"])
        #expect(retrieved.json["totalAuthorizedAmount"] as? Double == 120)
        #expect(retrieved.json["status"] as? String == "CAPTURED")
        let read = try await send(b, "u1")
        #expect(read.status == 200 && read.body == up.body)
    }

    @Test("updates and captures racing on two PostgreSQL replicas never capture beyond the authorization")
    func racingReplicas() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let ports = cluster.replicas.map(\.port)
        for round in 0..<4 {
            let order = "/order/race-upd-\(round)"
            let auth = try await ReplicaCluster.send(
                port: ports[0],
                "\(order)/transaction/auth",
                body: ReplicaCluster.cardBody(operation: "AUTHORIZE", amount: "100.00")
            )
            #expect(auth.status == 201)
            // Two updates (down to 40.00, up to 90.00) and three captures of 30.00, all at once.
            let requests: [(String, Data)] = [
                ("u1", Self.update("40.00")), ("u2", Self.update("90.00")),
                ("c1", ReplicaCluster.captureBody(amount: "30.00")), ("c2", ReplicaCluster.captureBody(amount: "30.00")),
                ("c3", ReplicaCluster.captureBody(amount: "30.00")),
            ]
            let replies = try await withThrowingTaskGroup(of: (String, Int, Data).self) { group in
                for (index, (id, body)) in requests.enumerated() {
                    group.addTask {
                        let answer = try await ReplicaCluster.send(port: ports[index % 2], "\(order)/transaction/\(id)", body: body)
                        return (id, answer.status, answer.body)
                    }
                }
                return try await group.reduce(into: [(String, Int, Data)]()) { $0.append($1) }
            }
            let answers = Dictionary(uniqueKeysWithValues: replies.map { ($0.0, ($0.1, ReplicaCluster.json($0.2))) })
            for (id, answer) in answers {
                // 409: a race that outlasted the processor's retries, which changed nothing.
                #expect([201, 400, 409].contains(answer.0), "\(id): \(answer)")
                if answer.0 == 201 {
                    let authorized = Self.field(answer.1, "order.totalAuthorizedAmount") as? Double ?? -1
                    let captured = Self.field(answer.1, "order.totalCapturedAmount") as? Double ?? -1
                    #expect(captured <= authorized, "\(id) answered captured \(captured) of \(authorized)")
                }
            }
            let captures = answers.filter { $0.key.hasPrefix("c") && $0.value.0 == 201 }.count
            let final = ReplicaCluster.json(try await ReplicaCluster.send(port: ports[1], order).body)
            let authorized = final["totalAuthorizedAmount"] as? Double ?? -1
            let captured = final["totalCapturedAmount"] as? Double ?? -1
            #expect(captured == Double(captures) * 30, "round \(round): \(answers.mapValues(\.0))")
            #expect(captured <= authorized && [100, 40, 90].contains(authorized), "round \(round): \(captured) of \(authorized)")
            #expect((final["transaction"] as? [Any])?.count == 1 + answers.values.filter { $0.0 == 201 }.count)
        }
    }
}
