import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 64: PayPal browser payments through `gateway serve` on a real socket, as the mobile SDK
/// samples and the test merchant server make them: INITIATE_BROWSER_PAYMENT, the sandbox PayPal
/// page, the payer's decision, the return to `returnUrl`, then Retrieve Transaction and Retrieve
/// Order. On SQLite and on two PostgreSQL replicas (each step on the other one).
@Suite("Browser payments", .blocksThreads)
struct BrowserPaymentServeTests {
    typealias Gateways = ThreeDSecureTests.Gateways

    static let returnUrl = "https://merchant.example/paypal/return?cart=7"

    static func initiate(reference: String?, operation: String = "PAY", confirmation: String = "CONFIRM_AT_PROVIDER") -> Data {
        let named = reference.map { #","reference":"\#($0)""# } ?? ""
        return Data(
            #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"\#(operation)","returnUrl":"\#(returnUrl)","paypal":{"paymentConfirmation":"\#(confirmation)"}},"order":{"amount":"25.00","currency":"USD"\#(named)},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}},"customer":{"email":"payer@example.com"}}"#
                .utf8
        )
    }

    static func text(_ json: [String: Any], _ path: String) -> String? { ThreeDSecureTests.text(json, path) }

    /// The sealed interaction the redirect URL carries.
    static func interaction(_ redirectUrl: String) throws -> String {
        let components = try #require(URLComponents(string: redirectUrl))
        return try #require(components.queryItems?.first { $0.name == "interaction" }?.value)
    }

    static func get(_ url: String) async throws -> (status: Int, html: String) {
        let (data, response) = try await ReplicaCluster.session.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Initiates on `order`/`transaction` and has the payer decide; the decision page's answer.
    static func pay(
        _ gateways: Gateways,
        order: String,
        transaction: String = "t-1",
        reference: String?,
        decision: String
    ) async throws -> (status: Int, html: String) {
        let initiated = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/\(order)/transaction/\(transaction)",
            body: initiate(reference: reference)
        )
        #expect(initiated.status == 201)
        let sealed = try interaction(try #require(text(ReplicaCluster.json(initiated.body), "browserPayment.redirectUrl")))
        return try await ThreeDSecureTests.post(
            port: gateways.port(1),
            "/browserPayment/paypal/decision",
            [("interaction", sealed), ("decision", decision)]
        )
    }

    @Test(
        "approved at PayPal: the payment is recorded, the payer returns, the order shows the browser payment",
        arguments: ThreeDSecureTests.Store.allCases
    )
    func approved(store: ThreeDSecureTests.Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let initiated = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/bp-1/transaction/t-1",
            body: Self.initiate(reference: "TEST-SUCCEED")
        )
        #expect(initiated.status == 201)
        let initiation = ReplicaCluster.json(initiated.body)
        #expect(Self.text(initiation, "result") == "SUCCESS")
        #expect(Self.text(initiation, "order.status") == "INITIATED")
        #expect(Self.text(initiation, "response.gatewayCode") == "SUBMITTED")
        #expect(Self.text(initiation, "transaction.type") == "PAYMENT")
        #expect(Self.text(initiation, "browserPayment.interaction.status") == "INITIATED")
        #expect(Self.text(initiation, "browserPayment.returnUrl") == Self.returnUrl)
        #expect(Self.text(initiation, "browserPayment.operation") == "PAY")
        #expect(Self.text(initiation, "sourceOfFunds.type") == "BROWSER_PAYMENT")
        #expect(Self.text(initiation, "sourceOfFunds.browserPayment.type") == "PAYPAL")
        let redirectUrl = try #require(Self.text(initiation, "browserPayment.redirectUrl"))
        #expect(redirectUrl.contains("/browserPayment/paypal?interaction="))
        #expect(Self.text(initiation, "browserPayment.redirectHtml")?.contains("browserPayment/paypal?interaction=") == true)

        // Nothing is recorded before the payer decides.
        #expect(try await ReplicaCluster.send(port: gateways.port(1), "/order/bp-1/transaction/t-1").status == 404)

        // The provider's page, on the other replica: the payment and the two choices.
        let page = try await Self.get(redirectUrl.replacingOccurrences(of: ":\(gateways.port(0))/", with: ":\(gateways.port(1))/"))
        #expect(page.status == 200)
        #expect(page.html.contains("25.00 USD"))
        #expect(page.html.contains(#"value="APPROVE""#) && page.html.contains(#"value="CANCEL""#))

        let sealed = try Self.interaction(redirectUrl)
        let decided = try await ThreeDSecureTests.post(
            port: gateways.port(1),
            "/browserPayment/paypal/decision",
            [("interaction", sealed), ("decision", "APPROVE")]
        )
        #expect(decided.status == 200)
        #expect(decided.html.contains("https://merchant.example/paypal/return?cart=7&amp;orderId=bp-1&amp;transactionId=t-1"))

        let retrieved = try await ReplicaCluster.send(port: gateways.port(0), "/order/bp-1/transaction/t-1")
        #expect(retrieved.status == 200)
        let transaction = ReplicaCluster.json(retrieved.body)
        #expect(Self.text(transaction, "result") == "SUCCESS")
        #expect(Self.text(transaction, "response.gatewayCode") == "APPROVED")
        #expect(Self.text(transaction, "order.status") == "CAPTURED")
        #expect(Self.text(transaction, "sourceOfFunds.browserPayment.type") == "PAYPAL")
        #expect(Self.text(transaction, "browserPayment.interaction.status") == "RETURNED_TO_MERCHANT")
        #expect(Self.text(transaction, "browserPayment.interaction.timeReturned") != nil)
        #expect(Self.text(transaction, "customer.email") == "payer@example.com")
        #expect(ThreeDSecureTests.value(transaction, "sourceOfFunds.provided") == nil)

        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/bp-1").body)
        #expect(Self.text(order, "status") == "CAPTURED")
        #expect(Self.text(order, "sourceOfFunds.browserPayment.type") == "PAYPAL")
        #expect(Self.text(order, "browserPayment.interaction.status") == "RETURNED_TO_MERCHANT")
        #expect((order["transaction"] as? [Any])?.count == 1)

        // The decision is one-time: a cancel posted afterwards changes nothing.
        let again = try await ThreeDSecureTests.post(
            port: gateways.port(0),
            "/browserPayment/paypal/decision",
            [("interaction", sealed), ("decision", "CANCEL")]
        )
        #expect(again.status == 200)
        let still = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/bp-1/transaction/t-1").body)
        #expect(Self.text(still, "response.gatewayCode") == "APPROVED")
        // The identical INITIATE, retried, gets the transaction as decided.
        let retried = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/bp-1/transaction/t-1",
            body: Self.initiate(reference: "TEST-SUCCEED")
        )
        #expect(retried.status == 201)
        #expect(Self.text(ReplicaCluster.json(retried.body), "response.gatewayCode") == "APPROVED")

        // A refund of the PayPal payment keeps its source of funds.
        let refund = try await ReplicaCluster.send(
            port: gateways.port(1),
            "/order/bp-1/transaction/r-1",
            body: Data(#"{"apiOperation":"REFUND","transaction":{"amount":"5.00","currency":"USD"}}"#.utf8)
        )
        #expect(refund.status == 201)
        let refunded = ReplicaCluster.json(refund.body)
        #expect(Self.text(refunded, "order.status") == "PARTIALLY_REFUNDED")
        #expect(Self.text(refunded, "sourceOfFunds.browserPayment.type") == "PAYPAL")
    }

    @Test("the outcome follows the reference's test values; a cancel fails the order, which can be paid again")
    func outcomes() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let cases: [(order: String, reference: String?, decision: String, code: String, result: String, status: String)] = [
            ("o-decline", "TEST-FAIL-DECLINE", "APPROVE", "DECLINED", "FAILURE", "FAILED"),
            ("o-pending", "TEST-PENDING", "APPROVE", "SUBMITTED", "PENDING", "INITIATED"),
            ("o-expired", ".FAILEXPIRED_CARD", "APPROVE", "EXPIRED_CARD", "FAILURE", "FAILED"),
            ("o-cancel", "TEST-SUCCEED", "CANCEL", "CANCELLED", "FAILURE", "FAILED"),
        ]
        for item in cases {
            let decided = try await Self.pay(gateways, order: item.order, reference: item.reference, decision: item.decision)
            #expect(decided.status == 200, "\(item.order)")
            let transaction = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/\(item.order)/transaction/t-1").body)
            #expect(Self.text(transaction, "response.gatewayCode") == item.code, "\(item.order)")
            #expect(Self.text(transaction, "result") == item.result, "\(item.order)")
            #expect(Self.text(transaction, "order.status") == item.status, "\(item.order)")
        }
        // After the cancel, the payer tries again under a new transaction id and approves.
        let second = try await Self.pay(gateways, order: "o-cancel", transaction: "t-2", reference: "TEST-SUCCEED", decision: "APPROVE")
        #expect(second.status == 200)
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/o-cancel").body)
        #expect(Self.text(order, "status") == "CAPTURED")
        #expect((order["transaction"] as? [Any])?.count == 2)
        // An order paid already takes no other browser payment.
        let third = try await ReplicaCluster.send(port: gateways.port(0), "/order/o-cancel/transaction/t-3", body: Self.initiate(reference: nil))
        #expect(third.status == 400)
        // AUTHORIZE leaves the order AUTHORIZED for a later capture.
        let authorize = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/o-auth/transaction/t-1",
            body: Self.initiate(reference: nil, operation: "AUTHORIZE")
        )
        let sealed = try Self.interaction(try #require(Self.text(ReplicaCluster.json(authorize.body), "browserPayment.redirectUrl")))
        #expect(
            try await ThreeDSecureTests.post(
                port: gateways.port(0),
                "/browserPayment/paypal/decision",
                [("interaction", sealed), ("decision", "APPROVE")]
            ).status == 200
        )
        let authorized = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/o-auth/transaction/t-1").body)
        #expect(Self.text(authorized, "transaction.type") == "AUTHORIZATION")
        #expect(Self.text(authorized, "order.status") == "AUTHORIZED")
    }

    @Test("bad requests are refused by field and record nothing; a changed interaction is not accepted")
    func refusals() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let unknownConfirmation = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/bad-1/transaction/t-1",
            body: Self.initiate(reference: nil, confirmation: "CONFIRM_LATER")
        )
        #expect(unknownConfirmation.status == 400)
        #expect(Self.text(ReplicaCluster.json(unknownConfirmation.body), "error.field") == "browserPayment.paypal.paymentConfirmation")
        let noReturn = String(decoding: Self.initiate(reference: nil), as: UTF8.self).replacingOccurrences(
            of: #""returnUrl":"\#(Self.returnUrl)","#,
            with: ""
        )
        let missing = try await ReplicaCluster.send(port: gateways.port(0), "/order/bad-1/transaction/t-1", body: Data(noReturn.utf8))
        #expect(missing.status == 400)
        #expect(Self.text(ReplicaCluster.json(missing.body), "error.field") == "browserPayment.returnUrl")
        #expect(try await ReplicaCluster.send(port: gateways.port(0), "/order/bad-1").status == 404)

        let tampered = try await ThreeDSecureTests.post(
            port: gateways.port(0),
            "/browserPayment/paypal/decision",
            [("interaction", "AAAA"), ("decision", "APPROVE")]
        )
        #expect(tampered.status == 404)
        let page = try await Self.get("http://127.0.0.1:\(gateways.port(0))/browserPayment/paypal?interaction=AAAA")
        #expect(page.status == 404)
    }
}
