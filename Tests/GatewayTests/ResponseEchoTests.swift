import Foundation
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("What responses return of the request, and the fields that change the outcome")
struct ResponseEchoTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    static var payer: [String: Any] {
        [
            "billing": ["address": ["street": "1 Main St", "city": "Springfield", "postcodeZip": "62701", "country": "USA"]],
            "customer": ["firstName": "Jane", "lastName": "Doe", "email": "jane@example.com"],
            "shipping": ["contact": ["firstName": "John"], "address": ["country": "USA"]],
            "device": ["ipAddress": "203.0.113.7"],
        ]
    }

    func pay(order extra: [String: Any], card: [String: Any]? = nil) -> Data {
        var body = Self.payer
        var order: [String: Any] = ["amount": "10.00", "currency": "USD"]
        order.merge(extra) { $1 }
        body["apiOperation"] = "AUTHORIZE"
        body["order"] = order
        body["sourceOfFunds"] = [
            "type": "CARD",
            "provided": ["card": card ?? ["number": "5123450000000008", "securityCode": "100", "expiry": ["month": "1", "year": "39"]]],
        ]
        return TestGateway.json(body)
    }

    @Test("billing, customer, shipping, device and order fields come back; card data masked; retrievals agree")
    func echoAndRetrieval() async throws {
        let body = pay(order: ["description": "Two books", "reference": "INV-9", "item": [["name": "Book", "quantity": "2", "unitPrice": "5.00"]]])
        try await gateway.application.test(.router) { client in
            let authorize = try await client.put(TestGateway.path(order: "echo", transaction: "1"), body)
            #expect(authorize.status == .created)
            #expect(authorize.isCanonicalJSON)
            #expect(authorize.string("billing.address.city") == "Springfield")
            #expect(authorize.string("customer.email") == "jane@example.com")
            #expect(authorize.string("shipping.contact.firstName") == "John")
            #expect(authorize.string("device.ipAddress") == "203.0.113.7")
            #expect(authorize.string("order.description") == "Two books")
            #expect(authorize.string("order.reference") == "INV-9")
            #expect((authorize.value("order.item") as? [[String: Any]])?.first?["name"] as? String == "Book")
            #expect(authorize.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(!authorize.body.contains("5123450000000008"))
            #expect(authorize.value("sourceOfFunds.provided.card.securityCode") == nil)
            #expect(authorize.value("order.amount") as? Double == 10.0)

            // A capture names none of it and still describes the order; what it sends wins.
            let capture = try await client.put(
                TestGateway.path(order: "echo", transaction: "2"),
                TestGateway.json([
                    "apiOperation": "CAPTURE", "transaction": ["amount": "10.00", "currency": "USD"],
                    "customer": ["email": "new@example.com"],
                ])
            )
            #expect(capture.status == .created)
            #expect(capture.isCanonicalJSON)
            #expect(capture.string("billing.address.city") == "Springfield")
            #expect(capture.string("customer.email") == "new@example.com")
            #expect(capture.string("customer.firstName") == "Jane")
            #expect(capture.string("order.description") == "Two books")
            #expect(capture.value("order.totalCapturedAmount") as? Double == 10.0)

            let transaction = try await client.send(TestGateway.path(order: "echo", transaction: "1"), method: .get)
            #expect(transaction.body == authorize.body)
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/echo", method: .get)
            #expect(order.string("billing.address.street") == "1 Main St")
            #expect(order.string("customer.email") == "new@example.com")
            #expect(order.string("description") == "Two books")
            #expect(order.string("status") == "CAPTURED")
            #expect((order.value("item") as? [[String: Any]])?.count == 1)
        }
    }

    @Test("a 3DSecureId naming no check is refused on versions that have the field")
    func threeDSecureId() async throws {
        var object = try JSONSerialization.jsonObject(with: pay(order: [:])) as! [String: Any]
        object["3DSecureId"] = "3ds-123"
        let body = TestGateway.json(object)
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "3ds", transaction: "1", version: 53),
                body
            )
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("error.cause") == "INVALID_REQUEST")
            #expect(exchange.string("error.field") == "3DSecureId")
            #expect(exchange.string("error.explanation") == "No check has been performed for this merchant and 3D Secure Id.")
        }
    }

    @Test("wallets other than Apple Pay and Google Pay are valid values the merchant does not have")
    func otherWallets() async throws {
        try await gateway.application.test(.router) { client in
            let google = try await client.put(TestGateway.path(order: "wallet", transaction: "1"), pay(order: ["walletProvider": "SAMSUNG_PAY"]))
            #expect(google.status == .badRequest)
            #expect(google.string("error.field") == "order.walletProvider")
            #expect(google.string("error.validationType") == "UNSUPPORTED")
            #expect(google.string("error.explanation")?.contains("not enabled for wallet provider SAMSUNG_PAY") == true)

            // A session update is refused by the same reading, in the same words.
            let session = try #require(try await client.createSession().string("session.id"))
            let sessionUpdate = try await client.put(
                SessionRequests.sessionPath(session),
                TestGateway.json(["order": ["walletProvider": "SAMSUNG_PAY"]])
            )
            #expect(sessionUpdate.status == .badRequest, "\(sessionUpdate.body)")
            #expect(sessionUpdate.string("error.field") == "order.walletProvider")
            #expect(sessionUpdate.string("error.validationType") == "UNSUPPORTED")
            #expect(sessionUpdate.string("error.explanation") == google.string("error.explanation"))

            let unknown = try await client.put(TestGateway.path(order: "wallet", transaction: "2"), pay(order: ["walletProvider": "MY_WALLET"]))
            #expect(unknown.string("error.field") == "order.walletProvider")
            #expect(unknown.string("error.validationType") == "INVALID")
        }
    }
}
