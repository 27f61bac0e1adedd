import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 64: PayPal confirmed at the merchant (`paymentConfirmation` CONFIRM_AT_MERCHANT) through
/// `gateway serve` on a real socket: the payer's approval at the sandbox page leaves the payment
/// pending, CONFIRM_BROWSER_PAYMENT under the initiate's transaction id completes it once, and
/// every other confirmation is refused by field and changes nothing. On SQLite and on two
/// PostgreSQL replicas (each step on the other one).
@Suite("Browser payments confirmed at the merchant", .blocksThreads)
struct BrowserPaymentConfirmServeTests {
    typealias Gateways = ThreeDSecureTests.Gateways
    typealias Serve = BrowserPaymentServeTests

    static func confirm(_ order: String? = nil) -> Data {
        Data(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT"\#(order.map { #","order":\#($0)"# } ?? "")}"#.utf8)
    }

    /// Initiates CONFIRM_AT_MERCHANT (or `confirmation`) on one replica and has the payer decide
    /// on the other; the decision page's answer.
    static func approve(
        _ gateways: Gateways,
        order: String,
        reference: String? = "TEST-SUCCEED",
        confirmation: String = "CONFIRM_AT_MERCHANT",
        decision: String = "APPROVE"
    ) async throws -> (status: Int, html: String) {
        let initiated = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/\(order)/transaction/t-1",
            body: Serve.initiate(reference: reference, confirmation: confirmation)
        )
        #expect(initiated.status == 201)
        let redirectUrl = try #require(Serve.text(ReplicaCluster.json(initiated.body), "browserPayment.redirectUrl"))
        let page = try await Serve.get(redirectUrl.replacingOccurrences(of: ":\(gateways.port(0))/", with: ":\(gateways.port(1))/"))
        #expect(page.status == 200)
        #expect(page.html.contains("merchant confirms") == (confirmation == "CONFIRM_AT_MERCHANT"))
        return try await ThreeDSecureTests.post(
            port: gateways.port(1),
            "/browserPayment/paypal/decision",
            [("interaction", try Serve.interaction(redirectUrl)), ("decision", decision)]
        )
    }

    @Test(
        "approved at PayPal the payment waits; CONFIRM_BROWSER_PAYMENT completes it once, with a new amount",
        arguments: ThreeDSecureTests.Store.allCases
    )
    func confirmed(store: ThreeDSecureTests.Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let decided = try await Self.approve(gateways, order: "bpc-1")
        #expect(decided.status == 200)
        #expect(decided.html.contains("https://merchant.example/paypal/return?cart=7&amp;orderId=bpc-1&amp;transactionId=t-1"))

        // Back at the merchant: pending, as the payer left it.
        let pending = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/bpc-1/transaction/t-1").body)
        #expect(Serve.text(pending, "result") == "PENDING")
        #expect(Serve.text(pending, "response.gatewayCode") == "SUBMITTED")
        #expect(Serve.text(pending, "order.status") == "INITIATED")
        #expect(Serve.text(pending, "browserPayment.interaction.status") == "RETURNED_TO_MERCHANT")
        #expect(Serve.text(pending, "browserPayment.paypal.paymentConfirmation") == "CONFIRM_AT_MERCHANT")
        let pendingOrder = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/bpc-1").body)
        #expect(Serve.text(pendingOrder, "status") == "INITIATED")
        #expect(pendingOrder["totalCapturedAmount"] as? Double == 0)

        // The merchant adds shipping and confirms, on the other replica.
        let confirmBody = Self.confirm(#"{"amount":"30.00","currency":"USD"}"#)
        let confirmed = try await ReplicaCluster.send(port: gateways.port(1), "/order/bpc-1/transaction/t-1", body: confirmBody)
        #expect(confirmed.status == 201)
        let answer = ReplicaCluster.json(confirmed.body)
        #expect(Serve.text(answer, "result") == "SUCCESS")
        #expect(Serve.text(answer, "response.gatewayCode") == "APPROVED")
        #expect(Serve.text(answer, "order.status") == "CAPTURED")
        #expect(ThreeDSecureTests.value(answer, "order.amount") as? Double == 30)
        #expect(ThreeDSecureTests.value(answer, "transaction.amount") as? Double == 30)
        #expect(Serve.text(answer, "transaction.id") == "t-1")
        #expect(Serve.text(answer, "sourceOfFunds.browserPayment.type") == "PAYPAL")
        #expect(Serve.text(answer, "customer.email") == "payer@example.com")

        let retrieved = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/bpc-1/transaction/t-1").body)
        #expect(Serve.text(retrieved, "response.gatewayCode") == "APPROVED")
        #expect(Serve.text(retrieved, "result") == "SUCCESS")
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/bpc-1").body)
        #expect(Serve.text(order, "status") == "CAPTURED")
        #expect(order["totalCapturedAmount"] as? Double == 30)
        #expect((order["transaction"] as? [Any])?.count == 1)

        // Once: the identical confirmation gets the stored answer; another is refused and changes nothing.
        let retried = try await ReplicaCluster.send(port: gateways.port(0), "/order/bpc-1/transaction/t-1", body: confirmBody)
        #expect(retried.status == 201)
        #expect(retried.body == confirmed.body)
        let before = try await ReplicaCluster.send(port: gateways.port(1), "/order/bpc-1").body
        let other = try await ReplicaCluster.send(port: gateways.port(1), "/order/bpc-1/transaction/t-1", body: Self.confirm())
        #expect(other.status == 400)
        #expect(Serve.text(ReplicaCluster.json(other.body), "error.field") == "apiOperation")
        #expect(try await ReplicaCluster.send(port: gateways.port(1), "/order/bpc-1").body == before)
        // The identical INITIATE, retried, gets the payment as it now stands.
        let initiateAgain = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/bpc-1/transaction/t-1",
            body: Serve.initiate(reference: "TEST-SUCCEED", confirmation: "CONFIRM_AT_MERCHANT")
        )
        #expect(initiateAgain.status == 201)
        #expect(Serve.text(ReplicaCluster.json(initiateAgain.body), "response.gatewayCode") == "APPROVED")
    }

    @Test("the confirmation gets the provider's outcome by order.reference: a decline fails the order")
    func declined() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        #expect(try await Self.approve(gateways, order: "bpc-decline", reference: "TEST-FAIL-DECLINE").status == 200)
        let waiting = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/bpc-decline/transaction/t-1").body)
        #expect(Serve.text(waiting, "response.gatewayCode") == "SUBMITTED")
        let confirmed = try await ReplicaCluster.send(port: gateways.port(0), "/order/bpc-decline/transaction/t-1", body: Self.confirm())
        #expect(confirmed.status == 201)
        let answer = ReplicaCluster.json(confirmed.body)
        #expect(Serve.text(answer, "result") == "FAILURE")
        #expect(Serve.text(answer, "response.gatewayCode") == "DECLINED")
        #expect(Serve.text(answer, "order.status") == "FAILED")
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/bpc-decline").body)
        #expect(Serve.text(order, "status") == "FAILED")
    }

    @Test("nothing to confirm: each refusal names its field and changes nothing")
    func refusals() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        func refused(_ path: String, _ body: Data = Self.confirm(), field: String) async throws {
            let answer = try await ReplicaCluster.send(port: gateways.port(0), path, body: body)
            #expect(answer.status == 400, "\(path)")
            let json = ReplicaCluster.json(answer.body)
            #expect(Serve.text(json, "error.cause") == "INVALID_REQUEST", "\(path)")
            #expect(Serve.text(json, "error.field") == field, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        /// The order's retrieval, before and after a refusal.
        func order(_ id: String) async throws -> Data { try await ReplicaCluster.send(port: gateways.port(1), "/order/\(id)").body }

        // No such order.
        try await refused("/order/none/transaction/t-1", field: "order.id")
        #expect(try await ReplicaCluster.send(port: gateways.port(1), "/order/none").status == 404)

        // Initiated, the payer still at PayPal: nothing recorded to confirm.
        let initiated = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/waiting/transaction/t-1",
            body: Serve.initiate(reference: nil, confirmation: "CONFIRM_AT_MERCHANT")
        )
        #expect(initiated.status == 201)
        try await refused("/order/waiting/transaction/t-1", field: "order.id")
        #expect(try await ReplicaCluster.send(port: gateways.port(1), "/order/waiting/transaction/t-1").status == 404)

        // Another transaction id on an order awaiting confirmation; then another currency.
        #expect(try await Self.approve(gateways, order: "pending").status == 200)
        let pending = try await order("pending")
        try await refused("/order/pending/transaction/t-2", field: "transaction.id")
        try await refused("/order/pending/transaction/t-1", Self.confirm(#"{"amount":"25.00","currency":"EUR"}"#), field: "order.currency")
        #expect(try await order("pending") == pending)
        #expect(Serve.text(ReplicaCluster.json(pending), "status") == "INITIATED")

        // A card payment.
        let card = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/card/transaction/t-1",
            body: Data(
                #"{"apiOperation":"PAY","order":{"amount":"10.00","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
                    .utf8
            )
        )
        #expect(card.status == 201)
        let paid = try await order("card")
        try await refused("/order/card/transaction/t-1", field: "transaction.id")
        #expect(try await order("card") == paid)

        // Confirmed at PayPal already.
        #expect(try await Self.approve(gateways, order: "at-provider", confirmation: "CONFIRM_AT_PROVIDER").status == 200)
        let atProvider = try await order("at-provider")
        try await refused("/order/at-provider/transaction/t-1", field: "browserPayment.paypal.paymentConfirmation")
        #expect(try await order("at-provider") == atProvider)
        #expect(Serve.text(ReplicaCluster.json(atProvider), "status") == "CAPTURED")

        // Cancelled by the payer.
        #expect(try await Self.approve(gateways, order: "cancelled", decision: "CANCEL").status == 200)
        let cancelled = try await order("cancelled")
        try await refused("/order/cancelled/transaction/t-1", field: "apiOperation")
        #expect(try await order("cancelled") == cancelled)
        #expect(Serve.text(ReplicaCluster.json(cancelled), "status") == "FAILED")

        // A field a confirmation does not take.
        try await refused("/order/pending/transaction/t-1", Self.confirm(#"{"reference":"TEST-FAIL-DECLINE"}"#), field: "order.reference")
        #expect(try await order("pending") == pending)
    }

    @Test("UPDATE_BROWSER_PAYMENT answers the payment as it stands, before and after the confirmation, and changes nothing")
    func update() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let update = Data(#"{"apiOperation":"UPDATE_BROWSER_PAYMENT","correlationId":"review-page"}"#.utf8)
        #expect(try await Self.approve(gateways, order: "bpu-1").status == 200)
        let before = try await ReplicaCluster.send(port: gateways.port(1), "/order/bpu-1").body
        let updated = try await ReplicaCluster.send(port: gateways.port(0), "/order/bpu-1/transaction/t-1", body: update)
        #expect(updated.status == 201)
        let pending = ReplicaCluster.json(updated.body)
        #expect(Serve.text(pending, "result") == "PENDING")
        #expect(Serve.text(pending, "response.gatewayCode") == "SUBMITTED")
        #expect(Serve.text(pending, "browserPayment.interaction.status") == "RETURNED_TO_MERCHANT")
        #expect(Serve.text(pending, "correlationId") == "review-page")
        #expect(try await ReplicaCluster.send(port: gateways.port(1), "/order/bpu-1").body == before)

        #expect(try await ReplicaCluster.send(port: gateways.port(1), "/order/bpu-1/transaction/t-1", body: Self.confirm()).status == 201)
        let after = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/bpu-1/transaction/t-1", body: update).body)
        #expect(Serve.text(after, "response.gatewayCode") == "APPROVED")
        #expect(Serve.text(after, "order.status") == "CAPTURED")

        // Nothing to update: refused by field, as a confirmation is.
        let unknown = try await ReplicaCluster.send(port: gateways.port(0), "/order/bpu-1/transaction/t-9", body: update)
        #expect(unknown.status == 400)
        #expect(Serve.text(ReplicaCluster.json(unknown.body), "error.field") == "transaction.id")
        let amount = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/bpu-1/transaction/t-1",
            body: Data(#"{"apiOperation":"UPDATE_BROWSER_PAYMENT","order":{"amount":"1.00","currency":"USD"}}"#.utf8)
        )
        #expect(amount.status == 400)
        #expect(Serve.text(ReplicaCluster.json(amount.body), "error.field") == "order")
    }

    @Test("two replicas confirming at once: one confirmation; the identical one gets its answer, another is refused")
    func racingReplicas() async throws {
        let gateways = try await Gateways.start(.postgres)
        defer { gateways.stop() }
        let (port0, port1) = (gateways.port(0), gateways.port(1))
        for round in 0..<3 {
            #expect(try await Self.approve(gateways, order: "race-same-\(round)").status == 200)
            async let first = ReplicaCluster.send(port: port0, "/order/race-same-\(round)/transaction/t-1", body: Self.confirm())
            async let second = ReplicaCluster.send(port: port1, "/order/race-same-\(round)/transaction/t-1", body: Self.confirm())
            let (one, other) = try await (first, second)
            #expect(one.status == 201 && other.status == 201, "\(one.status) \(other.status)")
            #expect(one.body == other.body)

            #expect(try await Self.approve(gateways, order: "race-other-\(round)").status == 200)
            async let plain = ReplicaCluster.send(port: port0, "/order/race-other-\(round)/transaction/t-1", body: Self.confirm())
            async let changed = ReplicaCluster.send(
                port: port1,
                "/order/race-other-\(round)/transaction/t-1",
                body: Self.confirm(#"{"amount":"30.00","currency":"USD"}"#)
            )
            let statuses = try await [plain.status, changed.status].sorted()
            #expect(statuses == [201, 400])
            let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/race-other-\(round)").body)
            #expect(Serve.text(order, "status") == "CAPTURED")
            #expect((order["transaction"] as? [Any])?.count == 1)
        }
    }
}
