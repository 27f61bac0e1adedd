import BlockingWork
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 64 through `gateway serve` over real sockets, as a shop module meets it: a sandbox
/// merchant's risk rules are on by default, a REJECTED payment answers BLOCKED and authorizes
/// nothing, a REVIEW_REQUIRED one is in Retrieve Order, Retrieve Transaction and the notification
/// the receiver gets, and `merchant.<ID>.risk` disabled leaves every `risk` block out.
@Suite("Risk assessment on a live gateway", .blocksThreads)
struct RiskAssessmentServeTests {
    typealias Notifications = NotificationDeliveryTests

    static func body(_ operation: String, amount: String, card: String = "5123450000000008", country: String? = nil) -> String {
        let billing = country.map { #","billing":{"address":{"country":"\#($0)"}}"# } ?? ""
        return
            #"{"apiOperation":"\#(operation)","order":{"amount":"\#(amount)","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}\#(billing)}"#
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func field(_ json: [String: Any], _ path: String) -> Any? {
        var current: Any? = json
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    @Test("REJECTED answers BLOCKED and authorizes nothing; REVIEW_REQUIRED shows on Retrieve and in the notification")
    func riskOn() async throws {
        let receiver = try await NotificationReceiver(
            secret: Notifications.secret,
            log: Notifications.temporary("risk-receiver").appendingPathExtension("jsonl")
        )
        defer { receiver.stop() }
        let server = try await RunningGateway(
            store: Notifications.temporary("risk-on").appendingPathExtension("sqlite"),
            environment: Notifications.settings(url: receiver.url + "/hook")
        )
        defer { server.process.terminate() }

        // The billing country trigger: blocked before the acquirer.
        let (status, blockedData) = try await Notifications.put(
            server.port,
            "/order/risk-b/transaction/1",
            Self.body("PAY", amount: "10.00", country: "BVT")
        )
        #expect(status == 201)
        let blocked = try Self.json(blockedData)
        #expect(Self.field(blocked, "result") as? String == "FAILURE")
        #expect(Self.field(blocked, "response.gatewayCode") as? String == "BLOCKED")
        #expect(Self.field(blocked, "risk.response.gatewayCode") as? String == "REJECTED")
        let rule = (Self.field(blocked, "risk.response.rule") as? [[String: Any]])?.first
        #expect(rule?["id"] as? String == "SIM_REJECT_COUNTRY")
        #expect(rule?["data"] as? String == "BVT")
        #expect(rule?["recommendation"] as? String == "REJECT")
        #expect(Self.field(blocked, "transaction.authorizationCode") == nil)
        #expect(Self.field(blocked, "response.acquirerCode") == nil, "never sent to the acquirer")
        let blockedOrder = try Self.json(try await Notifications.get(server.port, "/order/risk-b"))
        #expect(Self.field(blockedOrder, "status") as? String == "FAILED")
        #expect(Self.field(blockedOrder, "totalAuthorizedAmount") as? Double == 0)
        #expect(Self.field(blockedOrder, "risk.response.gatewayCode") as? String == "REJECTED")

        // The card trigger: authorized, and held for review.
        let (heldStatus, heldData) = try await Notifications.put(
            server.port,
            "/order/risk-r/transaction/1",
            Self.body("AUTHORIZE", amount: "20.00", card: "5123450000007771")
        )
        #expect(heldStatus == 201)
        let held = try Self.json(heldData)
        #expect(Self.field(held, "response.gatewayCode") as? String == "APPROVED")
        #expect(Self.field(held, "risk.response.gatewayCode") as? String == "REVIEW_REQUIRED")
        let retrievedTransaction = try await Notifications.get(server.port, "/order/risk-r/transaction/1")
        #expect(Self.field(try Self.json(retrievedTransaction), "risk.response.review.decision") as? String == "PENDING")
        let order = try Self.json(try await Notifications.get(server.port, "/order/risk-r"))
        #expect(Self.field(order, "risk.response.gatewayCode") as? String == "REVIEW_REQUIRED")
        #expect(Self.field(order, "risk.response.review.decision") as? String == "PENDING")
        #expect(Self.field(order, "status") as? String == "AUTHORIZED")

        // An accepted payment carries its verdict too (a shop module acts on it).
        let (_, acceptedData) = try await Notifications.put(server.port, "/order/risk-a/transaction/1", Self.body("PAY", amount: "30.00"))
        #expect(Self.field(try Self.json(acceptedData), "risk.response.gatewayCode") as? String == "ACCEPTED")

        let arrivals = try await receiver.waitForDistinct(3)
        try #require(Set(arrivals.map(\.id)).count == 3, "arrived: \(arrivals.map(\.id)); log: \(server.output.suffix(1500))")
        let heldArrival = try #require(arrivals.first { Notifications.identifiers($0.body) == "risk-r/1" })
        #expect(heldArrival.secretMatches)
        let notified = try Self.json(Data(heldArrival.body.utf8))
        #expect(Self.field(notified, "risk.response.gatewayCode") as? String == "REVIEW_REQUIRED")
        #expect(Self.field(notified, "risk.response.review.decision") as? String == "PENDING")
        #expect(heldArrival.body == String(decoding: retrievedTransaction, as: UTF8.self), "the body is Retrieve Transaction's")
    }

    @Test("merchant.<ID>.risk disabled: the triggers do nothing and no response has a risk block")
    func riskOff() async throws {
        let server = try await RunningGateway(
            store: Notifications.temporary("risk-off").appendingPathExtension("sqlite"),
            environment: ["GATEWAY_MERCHANT_TESTMERCHANT_RISK": "disabled"]
        )
        defer { server.process.terminate() }
        let (status, data) = try await Notifications.put(server.port, "/order/off-1/transaction/1", Self.body("PAY", amount: "72.72", country: "BVT"))
        #expect(status == 201)
        let paid = try Self.json(data)
        #expect(Self.field(paid, "response.gatewayCode") as? String == "APPROVED")
        #expect(paid["risk"] == nil)
        #expect(try Self.json(try await Notifications.get(server.port, "/order/off-1"))["risk"] == nil)
        #expect(try Self.json(try await Notifications.get(server.port, "/order/off-1/transaction/1"))["risk"] == nil)
    }
}
