import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two `gateway serve` processes on one PostgreSQL database share one token repository per
/// merchant: a token made on one replica pays on the other, and one deleted on either is gone
/// from both.
@Suite("Tokens across replicas", .blocksThreads)
struct TokenReplicaTests {
    @Test("a token created on replica 1 is read, paid with and deleted on replica 2; replica 1 then refuses it")
    func tokenAcrossReplicas() async throws {
        let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
        defer { cluster.stop() }
        let (a, b) = (cluster.replicas[0].port, cluster.replicas[1].port)
        let card = Data(
            #"{"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#.utf8
        )
        let created = try await Self.send(port: a, "POST", "/token", body: card)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let token = try #require(ReplicaCluster.json(created.body)["token"] as? String)

        let read = try await Self.send(port: b, "GET", "/token/\(token)")
        #expect(read.status == 200)
        let readCard = (ReplicaCluster.json(read.body)["sourceOfFunds"] as? [String: Any])?["provided"] as? [String: Any]
        #expect((readCard?["card"] as? [String: Any])?["number"] as? String == "512345xxxxxx0008")

        let payment = Data(
            #"{"apiOperation":"PAY","order":{"amount":"56.56","currency":"USD"},"sourceOfFunds":{"type":"CARD","token":"\#(token)"}}"#.utf8
        )
        let paid = try await ReplicaCluster.send(port: b, "/order/replica-token/transaction/1", body: payment)
        #expect(paid.status == 201)
        let paidJSON = ReplicaCluster.json(paid.body)
        #expect(paidJSON["result"] as? String == "SUCCESS", "\(paidJSON)")
        #expect((paidJSON["sourceOfFunds"] as? [String: Any])?["token"] as? String == token)

        #expect(try await Self.send(port: b, "DELETE", "/token/\(token)").status == 200)
        #expect(try await Self.send(port: a, "GET", "/token/\(token)").status == 404)
        let refused = try await ReplicaCluster.send(port: a, "/order/replica-token-2/transaction/1", body: payment)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("sourceOfFunds.token"))
    }

    /// Any method under /api/rest/version/100/merchant/TESTMERCHANT; status and body.
    static func send(port: Int, _ method: String, _ path: String, body: Data? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT\(path)"))
        request.httpMethod = method
        request.setValue(ReplicaCluster.authorization, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (data, response) = try await ReplicaCluster.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
