import BlockingWork
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 64: payments in a series through `gateway serve` on a real socket, as the reference's
/// "Credential on File" guide has them: the payer's first payment under an agreement stores the
/// card (a gateway token), then the merchant pays alone with the token (`transaction.source`
/// MERCHANT, `storedOnFile` STORED, `agreement.id` and `referenceOrderId`), and the rules refuse
/// what a merchant-initiated payment may not send.
@Suite("Recurring and merchant-initiated payments", .blocksThreads)
struct RecurringPaymentServeTests {
    static let agreement = #""agreement":{"id":"AGR-7","type":"RECURRING","paymentFrequency":"MONTHLY","amountVariability":"FIXED""#

    static func text(_ json: [String: Any], _ path: String) -> String? { ThreeDSecureTests.text(json, path) }

    /// A merchant-initiated PAY with the token, less or more than the reference asks.
    static func merchantInitiated(
        token: String,
        agreement: Bool = true,
        reference: String? = "rec-first",
        storedOnFile: String = "STORED",
        securityCode: Bool = false
    ) -> Data {
        let named = agreement ? #",\#(Self.agreement)}"# : ""
        let referenced = reference.map { #","referenceOrderId":"\#($0)""# } ?? ""
        let code = securityCode ? #","securityCode":"100""# : ""
        return Data(
            #"{"apiOperation":"PAY","order":{"amount":"9.99","currency":"USD"},"transaction":{"source":"MERCHANT"}\#(named)\#(referenced),"sourceOfFunds":{"type":"CARD","token":"\#(token)","provided":{"card":{"storedOnFile":"\#(storedOnFile)"\#(code)}}}}"#
                .utf8
        )
    }

    @Test(
        "the payer's first payment stores the card; the merchant then pays alone with the token (on PostgreSQL, each on the other replica)",
        arguments: ThreeDSecureTests.Store.allCases
    )
    func series(store: ThreeDSecureTests.Store) async throws {
        let gateways = try await ThreeDSecureTests.Gateways.start(store)
        defer { gateways.stop() }
        let port = gateways.port(0)
        let other = gateways.port(1)
        // The first payment, with the payer: the agreement and TO_BE_STORED.
        let first = try await ReplicaCluster.send(
            port: port,
            "/order/rec-first/transaction/1",
            body: Data(
                #"{"apiOperation":"PAY","order":{"amount":"9.99","currency":"USD"},"transaction":{"source":"INTERNET"},\#(Self.agreement)},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"},"securityCode":"100","storedOnFile":"TO_BE_STORED"}}}}"#
                    .utf8
            )
        )
        #expect(first.status == 201)
        let firstJSON = ReplicaCluster.json(first.body)
        #expect(Self.text(firstJSON, "result") == "SUCCESS")
        #expect(Self.text(firstJSON, "agreement.id") == "AGR-7")
        #expect(Self.text(firstJSON, "sourceOfFunds.provided.card.storedOnFile") == "TO_BE_STORED")

        let created = try await TokenReplicaTests.send(
            port: port,
            "POST",
            "/token",
            body: Data(
                #"{"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#.utf8
            )
        )
        #expect(created.status == 201)
        let token = try #require(ReplicaCluster.json(created.body)["token"] as? String)

        // The merchant alone: MERCHANT, STORED, the agreement and the order it follows.
        let next = try await ReplicaCluster.send(port: other, "/order/rec-second/transaction/1", body: Self.merchantInitiated(token: token))
        #expect(next.status == 201, "\(String(decoding: next.body, as: UTF8.self))")
        let nextJSON = ReplicaCluster.json(next.body)
        #expect(Self.text(nextJSON, "result") == "SUCCESS")
        #expect(Self.text(nextJSON, "transaction.source") == "MERCHANT")
        #expect(Self.text(nextJSON, "referenceOrderId") == "rec-first")
        #expect(Self.text(nextJSON, "agreement.type") == "RECURRING")
        #expect(Self.text(nextJSON, "sourceOfFunds.provided.card.storedOnFile") == "STORED")

        // Retrieve Order keeps the agreement and the reference with the order; a refund keeps the card's storedOnFile.
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: other, "/order/rec-second").body)
        #expect(Self.text(order, "agreement.id") == "AGR-7")
        #expect(Self.text(order, "referenceOrderId") == "rec-first")
        let refund = try await ReplicaCluster.send(
            port: port,
            "/order/rec-second/transaction/r1",
            body: Data(#"{"apiOperation":"REFUND","transaction":{"amount":"1.00","currency":"USD"}}"#.utf8)
        )
        #expect(Self.text(ReplicaCluster.json(refund.body), "sourceOfFunds.provided.card.storedOnFile") == "STORED")

        // An agreement alone (no reference order) is enough.
        let byAgreement = try await ReplicaCluster.send(
            port: port,
            "/order/rec-third/transaction/1",
            body: Self.merchantInitiated(token: token, reference: nil)
        )
        #expect(byAgreement.status == 201)
    }

    @Test(
        "what a merchant-initiated payment may not send is refused by field, and records nothing",
        arguments: [
            ("no agreement or reference order", "agreement.id"), ("a security code", "sourceOfFunds.provided.card.securityCode"),
            ("a card to be stored", "sourceOfFunds.provided.card.storedOnFile"), ("an unknown reference order", "referenceOrderId"),
        ]
    )
    func refusals(case name: String, field: String) async throws {
        let gateways = try await ThreeDSecureTests.Gateways.start(.sqlite)
        defer { gateways.stop() }
        let port = gateways.port(0)
        let created = try await TokenReplicaTests.send(
            port: port,
            "POST",
            "/token",
            body: Data(
                #"{"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#.utf8
            )
        )
        let token = try #require(ReplicaCluster.json(created.body)["token"] as? String)
        let body: Data =
            switch field {
            case "agreement.id": Self.merchantInitiated(token: token, agreement: false, reference: nil)
            case "sourceOfFunds.provided.card.securityCode": Self.merchantInitiated(token: token, reference: nil, securityCode: true)
            case "sourceOfFunds.provided.card.storedOnFile": Self.merchantInitiated(token: token, reference: nil, storedOnFile: "TO_BE_STORED")
            default: Self.merchantInitiated(token: token, reference: "no-such-order")
            }
        let refused = try await ReplicaCluster.send(port: port, "/order/mit-refused/transaction/1", body: body)
        #expect(refused.status == 400, "\(name)")
        #expect(Self.text(ReplicaCluster.json(refused.body), "error.field") == field, "\(name)")
        #expect(try await ReplicaCluster.send(port: port, "/order/mit-refused").status == 404, "\(name)")
    }
}
