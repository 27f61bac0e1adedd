import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore

/// Issue 64, the operator's half, over a real socket (`.live`): a payment the risk rules held for
/// review is accepted or rejected from the order page (admins only, with the session's CSRF
/// token, audited), and the decision shows on Retrieve Order and Retrieve Transaction and is
/// queued as a notification.
@Suite("Merchant Administration risk review")
struct MerchantConsoleRiskReviewTests {
    let clock = TestClock()

    /// The gateway with TESTMERCHANT's risk rules on, notifying a URL, and an admin and a viewer.
    func console(_ store: StoreKind) async throws -> GatewayDependencies {
        var services = try await TestGateway(store: store, clock: clock.now).services
        services.consolePolicy.failureDelay = .zero
        services.merchants[TestGateway.merchantId]?.risk = RiskScreening()
        services.merchants[TestGateway.merchantId]?.notifications = MerchantNotifications(
            url: "https://shop.example/hook",
            secret: "whsec-0123456789abcdef"
        )
        return services
    }

    func addOperators(_ services: GatewayDependencies) async throws {
        let consoleStore = try #require(services.consoleStore)
        for (name, role) in [("alice", OperatorRole.admin), ("victor", .viewer)] {
            let hash = try PasswordHash(password: "password of \(name)", rounds: 1000)
            let added = try await consoleStore.insertOperator(
                StoredOperator(merchantId: TestGateway.merchantId, name: name, role: role, passwordHash: hash)
            )
            #expect(added)
        }
    }

    /// An AUTHORIZE the amount trigger holds for review (71.71).
    func authorizeHeld(_ client: some TestClientProtocol, order: String) async throws {
        let held = try await client.put(
            TestGateway.path(order: order, transaction: "1"),
            TestGateway.cardBody(operation: "AUTHORIZE", amount: "71.71")
        )
        #expect(held.string("response.gatewayCode") == "APPROVED")
        #expect(held.string("risk.response.gatewayCode") == "REVIEW_REQUIRED")
        #expect(held.string("risk.response.review.decision") == "PENDING")
    }

    func retrieve(_ client: some TestClientProtocol, _ path: String) async throws -> Exchange {
        try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/\(path)", method: .get)
    }

    func notificationCount(_ services: GatewayDependencies) async throws -> Int {
        try await #require(services.outbox).notifications(merchantId: TestGateway.merchantId, status: nil, limit: 50).count
    }

    @Test(
        "an admin accepts a held payment: Retrieve Order and Transaction show ACCEPTED, a notification is queued, the audit says who",
        arguments: StoreKind.allCases
    )
    func accept(store: StoreKind) async throws {
        let services = try await console(store)
        try await buildApplication(services, logger: Logger(label: "test")).test(.live) { client in
            try await addOperators(services)
            try await authorizeHeld(client, order: "risk-1")
            #expect(try await notificationCount(services) == 1)
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: "password of alice")
            let page = try await browser.get("/ma/orders/risk-1")
            #expect(page.html.contains("REVIEW_REQUIRED"))
            #expect(page.html.contains("/ma/orders/risk-1/risk-accept"))

            let accepted = try await browser.post("/ma/orders/risk-1/risk-accept", [("csrf", page.hidden("csrf") ?? "")])
            #expect(accepted.status == .ok)
            #expect(accepted.html.contains("Risk review of 1: ACCEPTED"))
            #expect(!accepted.html.contains("/ma/orders/risk-1/risk-accept"), "a decided review offers no form")

            let order = try await retrieve(client, "risk-1")
            #expect(order.string("risk.response.review.decision") == "ACCEPTED")
            #expect(order.string("risk.response.review.userId") == "alice")
            let transaction = try await retrieve(client, "risk-1/transaction/1")
            #expect(transaction.string("risk.response.gatewayCode") == "REVIEW_REQUIRED")
            #expect(transaction.string("risk.response.review.decision") == "ACCEPTED")
            #expect(transaction.string("response.gatewayCode") == "APPROVED")
            #expect(try await notificationCount(services) == 2, "the decision is notified")

            // Decided once: a second decision (another operator's stale page) changes nothing.
            let again = try await browser.post("/ma/orders/risk-1/risk-reject", [("csrf", page.hidden("csrf") ?? "")])
            #expect(again.status == .conflict)
            #expect(try await retrieve(client, "risk-1").string("risk.response.review.decision") == "ACCEPTED")
            #expect(try await notificationCount(services) == 2)

            let capture = #"{"apiOperation":"CAPTURE","transaction":{"amount":"71.71","currency":"USD"}}"#
            #expect(try await client.put(TestGateway.path(order: "risk-1", transaction: "2"), Data(capture.utf8)).string("result") == "SUCCESS")

            let audit = try await browser.get("/ma/audit")
            #expect(audit.html.contains("<td>RISK_REVIEW</td>"))
            #expect(audit.html.contains("risk review ACCEPTED on order risk-1"))
        }
    }

    @Test("a rejected review stops captures (a VOID still goes); a forged form and a viewer change nothing", arguments: StoreKind.allCases)
    func reject(store: StoreKind) async throws {
        let services = try await console(store)
        try await buildApplication(services, logger: Logger(label: "test")).test(.live) { client in
            try await addOperators(services)
            try await authorizeHeld(client, order: "risk-2")
            let viewer = ConsoleBrowser(client)
            _ = try await viewer.login(merchant: TestGateway.merchantId, name: "victor", password: "password of victor")
            let viewerPage = try await viewer.get("/ma/orders/risk-2")
            #expect(!viewerPage.html.contains("/ma/orders/risk-2/risk-reject"))
            let forbidden = try await viewer.post("/ma/orders/risk-2/risk-reject", [("csrf", viewerPage.hidden("csrf") ?? "")])
            #expect(forbidden.status == .forbidden)

            let admin = ConsoleBrowser(client)
            _ = try await admin.login(merchant: TestGateway.merchantId, name: "alice", password: "password of alice")
            let page = try await admin.get("/ma/orders/risk-2")
            let forged = try await admin.post("/ma/orders/risk-2/risk-reject", [("csrf", String(repeating: "a", count: 64))])
            #expect(forged.status == .forbidden)
            #expect(try await retrieve(client, "risk-2").string("risk.response.review.decision") == "PENDING")

            let rejected = try await admin.post("/ma/orders/risk-2/risk-reject", [("csrf", page.hidden("csrf") ?? "")])
            #expect(rejected.status == .ok)
            #expect(try await retrieve(client, "risk-2").string("risk.response.review.decision") == "REJECTED")

            let capture = #"{"apiOperation":"CAPTURE","transaction":{"amount":"71.71","currency":"USD"}}"#
            let refused = try await client.put(TestGateway.path(order: "risk-2", transaction: "2"), Data(capture.utf8))
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.cause") == "INVALID_REQUEST")
            #expect(try await retrieve(client, "risk-2").string("status") == "AUTHORIZED")
            let void = #"{"apiOperation":"VOID","transaction":{"targetTransactionId":"1"}}"#
            #expect(try await client.put(TestGateway.path(order: "risk-2", transaction: "3"), Data(void.utf8)).string("result") == "SUCCESS")

            let audit = try await admin.get("/ma/audit")
            #expect(audit.html.contains("risk review REJECTED on order risk-2"))
            #expect(audit.html.contains("<td>FORBIDDEN</td>"))
        }
    }
}
