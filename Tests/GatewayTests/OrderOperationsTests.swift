import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

@Suite("CAPTURE, REFUND and VOID")
struct OrderOperationsTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    static func followOn(
        _ operation: String,
        amount: String? = nil,
        currency: String = "USD",
        target: String? = nil
    )
        -> Data
    {
        var transaction: [String: Any] = [:]
        if let amount {
            transaction["amount"] = amount
            transaction["currency"] = currency
        }
        if let target { transaction["targetTransactionId"] = target }
        // Clients often send objects the operation does not use, some of them empty.
        return TestGateway.json(["apiOperation": operation, "transaction": transaction, "order": [:] as [String: Any]])
    }

    @Test("partial and full captures, then partial and full refunds, with totals and status after each")
    func captureAndRefund() async throws {
        try await gateway.application.test(.router) { client in
            let order = "life-1"
            let auth = try await client.put(
                TestGateway.path(order: order, transaction: "auth"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "100.00")
            )
            #expect(auth.string("order.status") == "AUTHORIZED")

            let first = try await client.put(TestGateway.path(order: order, transaction: "c1"), Self.followOn("CAPTURE", amount: "40.00"))
            #expect(first.status == .created)
            #expect(first.string("transaction.type") == "CAPTURE")
            #expect(first.string("order.status") == "PARTIALLY_CAPTURED")
            #expect(first.value("order.totalCapturedAmount") as? Double == 40)
            #expect(first.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(auth.isCanonicalJSON && first.isCanonicalJSON)

            let tooMuch = try await client.put(TestGateway.path(order: order, transaction: "c2"), Self.followOn("CAPTURE", amount: "60.01"))
            #expect(tooMuch.status == .badRequest)
            #expect(tooMuch.string("error.field") == "transaction.amount")

            let rest = try await client.put(TestGateway.path(order: order, transaction: "c3"), Self.followOn("CAPTURE", amount: "60.00"))
            #expect(rest.string("order.status") == "CAPTURED")
            #expect(rest.value("order.totalCapturedAmount") as? Double == 100)

            let refund = try await client.put(TestGateway.path(order: order, transaction: "r1"), Self.followOn("REFUND", amount: "30.00"))
            #expect(refund.string("transaction.type") == "REFUND")
            #expect(refund.string("order.status") == "PARTIALLY_REFUNDED")
            let overRefund = try await client.put(TestGateway.path(order: order, transaction: "r2"), Self.followOn("REFUND", amount: "70.01"))
            #expect(overRefund.status == .badRequest)
            let full = try await client.put(TestGateway.path(order: order, transaction: "r3"), Self.followOn("REFUND", amount: "70.00"))
            #expect(full.string("order.status") == "REFUNDED")
            #expect(full.value("order.totalRefundedAmount") as? Double == 100)
            #expect(refund.isCanonicalJSON && full.isCanonicalJSON)

            let stored = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/\(order)", method: .get)
            #expect((stored.value("transaction") as? [Any])?.count == 5)
            #expect(stored.string("status") == "REFUNDED")
        }
    }

    @Test("a declined follow-on (57.57) is recorded and changes no totals")
    func declinedCapture() async throws {
        try await gateway.application.test(.router) { client in
            _ = try await client.put(
                TestGateway.path(order: "decline-capture", transaction: "auth"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "100.00")
            )
            let declined = try await client.put(
                TestGateway.path(order: "decline-capture", transaction: "c1"),
                Self.followOn("CAPTURE", amount: "57.57")
            )
            #expect(declined.status == .created)
            #expect(declined.string("result") == "FAILURE")
            #expect(declined.string("response.gatewayCode") == "DECLINED")
            #expect(declined.string("order.status") == "AUTHORIZED")
            #expect(declined.value("order.totalCapturedAmount") as? Double == 0)
            let retry = try await client.put(
                TestGateway.path(order: "decline-capture", transaction: "c1"),
                Self.followOn("CAPTURE", amount: "57.57")
            )
            #expect(retry.body == declined.body)
        }
    }

    @Test("refunds need funds moved; captures need an authorization; currencies must match")
    func preconditions() async throws {
        try await gateway.application.test(.router) { client in
            _ = try await client.put(
                TestGateway.path(order: "pre", transaction: "auth"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "10.00")
            )
            let early = try await client.put(TestGateway.path(order: "pre", transaction: "r"), Self.followOn("REFUND", amount: "1.00"))
            #expect(early.status == .badRequest)
            #expect(early.string("error.field") == "apiOperation")
            let euro = try await client.put(
                TestGateway.path(order: "pre", transaction: "c"),
                Self.followOn("CAPTURE", amount: "1.00", currency: "EUR")
            )
            #expect(euro.string("error.field") == "transaction.currency")
            let nowhere = try await client.put(TestGateway.path(order: "no-order", transaction: "c"), Self.followOn("CAPTURE", amount: "1.00"))
            #expect(nowhere.status == .notFound)
        }
    }

    @Test("VOID follows its target's type, restores the totals, and says when there is nothing to void")
    func voids() async throws {
        try await gateway.application.test(.router) { client in
            let nothing = try await client.put(TestGateway.path(order: "v", transaction: "x"), Self.followOn("VOID", target: "nope"))
            #expect(nothing.status == .notFound)  // no order at all

            _ = try await client.put(
                TestGateway.path(order: "v", transaction: "auth"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "20.00")
            )
            let capture = try await client.put(TestGateway.path(order: "v", transaction: "c1"), Self.followOn("CAPTURE", amount: "5.00"))
            #expect(capture.string("order.status") == "PARTIALLY_CAPTURED")

            let unknownTarget = try await client.put(TestGateway.path(order: "v", transaction: "v0"), Self.followOn("VOID", target: "nope"))
            #expect(unknownTarget.status == .badRequest)
            #expect(unknownTarget.string("error.explanation") == "Value 'VOID' is invalid. There is no transaction to void.")
            #expect(unknownTarget.string("error.field") == "apiOperation")

            let authWithCapture = try await client.put(TestGateway.path(order: "v", transaction: "v1"), Self.followOn("VOID", target: "auth"))
            #expect(authWithCapture.string("error.explanation") == "Value 'VOID' is invalid. There is no transaction to void.")

            let voidCapture = try await client.put(TestGateway.path(order: "v", transaction: "v2"), Self.followOn("VOID", target: "c1"))
            #expect(voidCapture.string("transaction.type") == "VOID_CAPTURE")
            #expect(voidCapture.string("transaction.targetTransactionId") == "c1")
            #expect(voidCapture.string("order.status") == "AUTHORIZED")
            #expect(voidCapture.value("order.totalCapturedAmount") as? Double == 0)

            let again = try await client.put(TestGateway.path(order: "v", transaction: "v3"), Self.followOn("VOID", target: "c1"))
            #expect(again.status == .badRequest)

            let voidAuth = try await client.put(TestGateway.path(order: "v", transaction: "v4"), Self.followOn("VOID", target: "auth"))
            #expect(voidAuth.string("transaction.type") == "VOID_AUTHORIZATION")
            #expect(voidAuth.string("order.status") == "CANCELLED")
            let afterCancel = try await client.put(TestGateway.path(order: "v", transaction: "c2"), Self.followOn("CAPTURE", amount: "1.00"))
            #expect(afterCancel.status == .badRequest)
        }
    }

    @Test("VOID of a payment cancels the order; VOID of a refund gives the money back to the order")
    func voidPaymentAndRefund() async throws {
        try await gateway.application.test(.router) { client in
            _ = try await client.put(TestGateway.path(order: "vp", transaction: "pay"), TestGateway.cardBody(amount: "30.00"))
            let refund = try await client.put(
                TestGateway.path(order: "vp", transaction: "r1"),
                Self.followOn("REFUND", amount: "10.00", target: "pay")
            )
            #expect(refund.string("order.status") == "PARTIALLY_REFUNDED")
            let payWithRefund = try await client.put(TestGateway.path(order: "vp", transaction: "v1"), Self.followOn("VOID", target: "pay"))
            #expect(payWithRefund.status == .badRequest)
            let voidRefund = try await client.put(TestGateway.path(order: "vp", transaction: "v2"), Self.followOn("VOID", target: "r1"))
            #expect(voidRefund.string("transaction.type") == "VOID_REFUND")
            #expect(voidRefund.string("order.status") == "CAPTURED")
            let voidPay = try await client.put(TestGateway.path(order: "vp", transaction: "v3"), Self.followOn("VOID", target: "pay"))
            #expect(voidPay.string("transaction.type") == "VOID_PAYMENT")
            #expect(voidPay.string("order.status") == "CANCELLED")
            #expect(voidPay.value("order.totalCapturedAmount") as? Double == 0)
        }
    }

    @Test("VERIFY checks the card without moving money; an authorization may follow on the order")
    func verify() async throws {
        let verifyBody = TestGateway.json([
            "apiOperation": "VERIFY", "order": ["currency": "USD"],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["number": "4508750015741019", "expiry": ["month": "1", "year": "39"]]]],
        ])
        try await gateway.application.test(.router) { client in
            let verified = try await client.put(TestGateway.path(order: "ver", transaction: "1"), verifyBody)
            #expect(verified.status == .created)
            #expect(verified.string("transaction.type") == "VERIFICATION")
            #expect(verified.string("order.status") == "VERIFIED")
            #expect(verified.value("order.totalAuthorizedAmount") as? Double == 0)
            let capture = try await client.put(TestGateway.path(order: "ver", transaction: "2"), Self.followOn("CAPTURE", amount: "1.00"))
            #expect(capture.status == .badRequest)
            let authorize = try await client.put(
                TestGateway.path(order: "ver", transaction: "3"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "5.00")
            )
            #expect(authorize.string("order.status") == "AUTHORIZED")

            let declined = try await client.put(
                TestGateway.path(order: "ver-2", transaction: "1"),
                TestGateway.cardBody(operation: "VERIFY", amount: "0", month: "5", year: "39")
            )
            #expect(declined.string("response.gatewayCode") == "DECLINED")
            #expect(declined.string("order.status") == "FAILED")
        }
    }

    @Test("many captures at once, over many connections, never exceed the authorization", arguments: StoreKind.allCases)
    func concurrentCaptures(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        try await gateway.application.test(.live) { client in
            _ = try await client.put(
                TestGateway.path(order: "race", transaction: "auth"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "100.00")
            )
            let port = try #require(client.port)
            let results = try await ParallelHTTP.put(
                port: port,
                paths: (0..<24).map { TestGateway.path(order: "race", transaction: "c\($0)") }
            ) { _ in Self.followOn("CAPTURE", amount: "10.00") }
            #expect(results.filter { $0.status == 201 && $0.json["result"] as? String == "SUCCESS" }.count == 10)
            #expect(results.filter { $0.status == 400 }.count == 14)
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/race", method: .get)
            #expect(order.value("totalCapturedAmount") as? Double == 100)
            #expect(order.string("status") == "CAPTURED")
            #expect((order.value("transaction") as? [Any])?.count == 11)
        }
    }
}
