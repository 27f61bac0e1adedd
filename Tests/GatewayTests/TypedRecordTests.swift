import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// The stored transaction is typed: follow-ons and Retrieve Order render from its columns, and
/// the response bytes are kept only for identical retries.
@Suite("The typed transaction record")
struct TypedRecordTests {
    static func order(_ orderId: String) -> String { "/api/rest/version/100/merchant/TESTMERCHANT/order/\(orderId)" }

    /// An AUTHORIZE with an order description, a security code and billing, then a CAPTURE.
    static func authorizeAndCapture(_ client: some TestClientProtocol, order: String) async throws -> [Exchange] {
        var authorize =
            try JSONSerialization.jsonObject(
                with: TestGateway.cardBody(operation: "AUTHORIZE", amount: "56.56", securityCode: "100")
            ) as! [String: Any]
        authorize["order"] = ["amount": "56.56", "currency": "USD", "description": "two mugs", "reference": "ref-9"]
        authorize["billing"] = ["address": ["city": "Lyon", "country": "FRA"]]
        authorize["transaction"] = ["reference": "first"]
        let authorized = try await client.put(TestGateway.path(order: order, transaction: "auth"), TestGateway.json(authorize))
        let captured = try await client.put(
            TestGateway.path(order: order, transaction: "cap"),
            TestGateway.json(["apiOperation": "CAPTURE", "transaction": ["amount": "20.00", "currency": "USD"]])
        )
        #expect(authorized.status == .created && captured.status == .created, "\(authorized.body) \(captured.body)")
        return [authorized, captured]
    }

    @Test("Retrieve Order renders each transaction exactly as its response was returned", arguments: StoreKind.allCases)
    func retrievalMatchesResponses(kind: StoreKind) async throws {
        let gateway = try await TestGateway(store: kind)
        try await gateway.application.test(.router) { client in
            let answers = try await Self.authorizeAndCapture(client, order: "typed")
            // The capture repeats the order's card and description from the typed record.
            #expect(answers[1].string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(answers[1].string("order.description") == "two mugs")
            #expect(answers[1].string("billing.address.city") == "Lyon")
            #expect(answers[1].value("transaction.reference") == nil)

            let order = try await client.send(Self.order("typed"), method: .get)
            #expect(order.status == .ok)
            let listed = try #require(order.value("transaction") as? [Any])
            #expect(listed.count == 2)
            for (rendered, answer) in zip(listed, answers) {
                #expect(NSDictionary(dictionary: rendered as? [String: Any] ?? [:]).isEqual(to: answer.json), "\(rendered)\n\(answer.body)")
            }
            #expect(order.string("description") == "two mugs")
            #expect(order.string("billing.address.city") == "Lyon")
        }
    }

    @Test("follow-ons and Retrieve Order never read a stored response; a retry gets its bytes")
    func storedBytesAreOnlyForRetries() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.router) { client in
            let answers = try await Self.authorizeAndCapture(client, order: "bytes")
            guard case .sqlite(let path) = try StoreLocation(url: gateway.services.configuration.storeURL) else {
                Issue.record("the test gateway is not on SQLite")
                return
            }
            // Response bytes nothing may read for what they say.
            let connection = try SQLiteConnection(path: path)
            try connection.execute("UPDATE transactions SET response_body = CAST('not a response' AS BLOB) WHERE order_id = 'bytes'")
            connection.close()

            let refund = try await client.put(
                TestGateway.path(order: "bytes", transaction: "ref"),
                TestGateway.json(["apiOperation": "REFUND", "transaction": ["amount": "5.00", "currency": "USD"]])
            )
            #expect(refund.status == .created, "\(refund.body)")
            #expect(refund.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(refund.string("order.description") == "two mugs")
            #expect(refund.string("order.status") == "PARTIALLY_REFUNDED")

            let order = try await client.send(Self.order("bytes"), method: .get)
            #expect(order.status == .ok, "\(order.body)")
            let listed = try #require(order.value("transaction") as? [Any])
            #expect(NSDictionary(dictionary: listed[0] as? [String: Any] ?? [:]).isEqual(to: answers[0].json))

            // An identical retry is answered with the stored bytes, whatever they are.
            let retry = try await client.put(
                TestGateway.path(order: "bytes", transaction: "cap"),
                TestGateway.json(["apiOperation": "CAPTURE", "transaction": ["amount": "20.00", "currency": "USD"]])
            )
            #expect(retry.body == "not a response")
        }
    }
}
