import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Payment Options Inquiry through `gateway serve` over a real socket, on either store, with the
/// sandbox's TESTMERCHANT (which has Apple Pay identities).
@Suite("Payment Options Inquiry on a live gateway", .blocksThreads)
struct PaymentOptionsServeTests {
    static func inquire(port: Int, query: String = "", body: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT/paymentOptionsInquiry\(query)"))
        request.httpMethod = body == nil ? "GET" : "POST"
        request.setValue(ReplicaCluster.authorization, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await ReplicaCluster.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, ReplicaCluster.json(data))
    }

    static func values(_ json: [String: Any], _ key: String, _ member: String) -> [String]? {
        let card = (json["paymentTypes"] as? [String: Any])?["card"] as? [String: Any]
        return (card?[key] as? [[String: Any]])?.compactMap { $0[member] as? String }
    }

    @Test("GET and POST answer the merchant's options, filtered; an unknown filter is refused", arguments: ["sqlite", "postgres"])
    func inquiry(store: String) async throws {
        let url =
            store == "sqlite"
            ? "sqlite://" + FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID().uuidString).sqlite").path
            : try await PostgresTestServer.shared().createDatabase()
        let cluster = try await ReplicaCluster(replicas: 1, storeURL: url)
        defer { cluster.stop() }
        let port = cluster.replicas[0].port

        let all = try await Self.inquire(port: port)
        #expect(all.status == 200)
        #expect(all.json["result"] as? String == "SUCCESS")
        #expect(Self.values(all.json, "walletProviders", "walletProvider") == ["APPLE_PAY", "GOOGLE_PAY"])
        #expect(Self.values(all.json, "cardTypes", "cardType")?.contains("VISA") == true)

        let dollars = try await Self.inquire(port: port, query: "?order.currency=USD")
        #expect(Self.values(dollars.json, "currencies", "currency") == ["USD"])
        let visa = try await Self.inquire(port: port, body: #"{"sourceOfFunds":{"provided":{"card":{"prefix":"411111"}}}}"#)
        #expect(visa.status == 200)
        #expect(Self.values(visa.json, "cardTypes", "cardType") == ["VISA"])
        let unknown = try await Self.inquire(port: port, body: #"{"order":{"currency":"USD","colour":"red"}}"#)
        #expect(unknown.status == 400)
        #expect((unknown.json["error"] as? [String: Any])?["field"] as? String == "order.colour")
    }
}
