import Foundation
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("Authentication and request validation")
struct RequestValidationTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    @Test("credentials: missing, wrong, and another merchant's path")
    func authentication() async throws {
        let body = TestGateway.cardBody(amount: "1.00")
        try await gateway.application.test(.router) { client in
            let none = try await client.put(TestGateway.path(order: "a", transaction: "1"), body, authorization: nil)
            #expect(none.status == .unauthorized)
            #expect(none.string("error.explanation") == "Invalid credentials.")
            #expect(none.string("result") == "ERROR")

            let wrong = try await client.put(
                TestGateway.path(order: "a", transaction: "1"),
                body,
                authorization: TestGateway.authorization(TestGateway.merchantId, TestGateway.otherPassword)
            )
            #expect(wrong.status == .unauthorized)
            #expect(wrong.string("error.explanation") == "Invalid credentials.")

            let crossed = try await client.put(
                TestGateway.path(order: "a", transaction: "1", merchant: TestGateway.merchantId),
                body,
                authorization: TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            )
            #expect(crossed.status == .unauthorized)
            #expect(
                crossed.string("error.explanation")
                    == "Authenticated entity not authorised to perform operation for target entity"
            )

            // Nothing was stored by any of them.
            let first = try await client.put(TestGateway.path(order: "a", transaction: "1"), body)
            #expect(first.status == .created)
        }
    }

    static let invalidBodies: [(String, String, String?, String?)] = [
        ("{not json", "Json encoded payload error", nil, nil),
        ("[]", "Json encoded payload error", nil, nil),
        (
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD","colour":"red"}}"#, "Unexpected parameter 'order.colour'",
            "order.colour", "UNSUPPORTED"
        ),
        (#"{"apiOperation":"PAY","order":"1.00"}"#, "must be an object", "order", "INVALID"),
        (#"{"apiOperation":"PAY","order":{"currency":"USD"}}"#, "Missing parameter 'order.amount'", "order.amount", "MISSING"),
        (#"{"apiOperation":"PAY","order":{"amount":"0.00","currency":"USD"}}"#, "must be greater than zero", "order.amount", "INVALID"),
        (#"{"apiOperation":"PAY","order":{"amount":"1.234","currency":"USD"}}"#, "at most 2 decimal places", "order.amount", "INVALID"),
        (#"{"apiOperation":"PAY","order":{"amount":"1.5","currency":"JPY"}}"#, "at most 0 decimal places", "order.amount", "INVALID"),
        (#"{"apiOperation":"PAY","order":{"amount":"-1","currency":"USD"}}"#, "is invalid", "order.amount", "INVALID"),
        (#"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"XYZ"}}"#, "Currency is not supported", "order.currency", "INVALID"),
        (#"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD"}}"#, "Missing parameter", "sourceOfFunds.provided.card.number", "MISSING"),
        (#"{"apiOperation":"VERIFY","order":{"currency":"USD"}}"#, "Missing parameter", "sourceOfFunds.provided.card.number", "MISSING"),
        (#"{"apiOperation":"VOID","transaction":{}}"#, "Missing parameter", "transaction.targetTransactionId", "MISSING"),
        (#"{"apiOperation":"CAPTURE","transaction":{"amount":"1.00"}}"#, "Missing parameter", "transaction.currency", "MISSING"),
        (#"{"apiOperation":"REFUND","transaction":{"amount":"0","currency":"USD"}}"#, "greater than zero", "transaction.amount", "INVALID"),
        (#"{"apiOperation":"SHOUT"}"#, "is invalid", "apiOperation", "INVALID"),
        (#"{"order":{"amount":"1.00","currency":"USD"}}"#, "Missing parameter 'apiOperation'", "apiOperation", "MISSING"),
        (
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"1234","expiry":{"month":"1","year":"39"}}}}}"#,
            "9 to 19 digits", "sourceOfFunds.provided.card.number", "INVALID"
        ),
        (
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"13","year":"39"}}}}}"#,
            "Month", "sourceOfFunds.provided.card.expiry.month", "INVALID"
        ),
        (
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD"},"sourceOfFunds":{"type":"ACH"}}"#, "Only CARD", "sourceOfFunds.type",
            "UNSUPPORTED"
        ),
    ]

    @Test("malformed and invalid bodies get MPGS field errors and change nothing", arguments: invalidBodies)
    func invalidBody(body: String, explanation: String, field: String?, validationType: String?) async throws {
        try await gateway.application.test(.router) { client in
            let exchange = try await client.send(
                TestGateway.path(order: "invalid", transaction: "1"),
                method: .put,
                body: Data(body.utf8)
            )
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("result") == "ERROR")
            #expect(exchange.string("error.cause") == "INVALID_REQUEST")
            #expect(exchange.string("error.explanation")?.contains(explanation) == true, "\(exchange.body)")
            #expect(exchange.string("error.field") == field)
            #expect(exchange.string("error.validationType") == validationType)
        }
        #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "invalid") == nil)
    }

    @Test("amounts and expiry fields also arrive as JSON numbers")
    func numbersForStrings() async throws {
        let body =
            #"{"apiOperation":"PAY","order":{"amount":12.5,"currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":1,"year":39}}}}}"#
        try await gateway.application.test(.router) { client in
            let exchange = try await client.send(
                TestGateway.path(order: "numbers", transaction: "1"),
                method: .put,
                body: Data(body.utf8)
            )
            #expect(exchange.status == .created)
            #expect(exchange.value("order.amount") as? Double == 12.5)
        }
    }

    @Test("paths: versions 39 to 100, identifiers up to 40 characters, unknown paths are MPGS 404s")
    func paths() async throws {
        let body = TestGateway.cardBody(amount: "1.00")
        try await gateway.application.test(.router) { client in
            let old = try await client.put(TestGateway.path(order: "v39", transaction: "1", version: 39), body)
            #expect(old.status == .created)
            #expect(old.string("version") == "39")
            let tooNew = try await client.put(TestGateway.path(order: "v101", transaction: "1", version: 101), body)
            #expect(tooNew.status == .notFound)
            let long = try await client.put(TestGateway.path(order: String(repeating: "x", count: 41), transaction: "1"), body)
            #expect(long.status == .badRequest)
            #expect(long.string("error.field") == "order.id")
            let unknown = try await client.send("/api/rest/nothing", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.string("result") == "ERROR")
            let information = try await client.send("/api/rest/version/52/information", method: .get, authorization: nil)
            #expect(information.status == .ok)
            #expect(information.string("status") == "OPERATING")
            let retrieve = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/v39", method: .get)
            #expect(retrieve.status == .ok)
        }
    }

    @Test("an oversized body is refused")
    func oversizedBody() async throws {
        let big = Data(("{\"apiOperation\":\"" + String(repeating: "A", count: 100_000) + "\"}").utf8)
        try await gateway.application.test(.router) { client in
            let exchange = try await client.send(TestGateway.path(order: "big", transaction: "1"), method: .put, body: big)
            #expect(exchange.status == .contentTooLarge)
            #expect(exchange.string("result") == "ERROR")
        }
    }
}
