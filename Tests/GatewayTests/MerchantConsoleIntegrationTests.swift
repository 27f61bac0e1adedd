import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore
@testable import GatewayStores

/// Merchant Administration's integration settings through HTTP: the API password rotation the
/// gateway allows (a second password, then the first retired), as the API sees it on this
/// replica and on one started afterwards; the notification settings and the delivery log with
/// redeliver, one merchant's only.
@Suite("Merchant Administration: integration settings")
struct MerchantConsoleIntegrationTests {
    let clock = TestClock()
    static let secret = "whsec-0123456789abcdef"

    func console(_ store: StoreKind, storeURL: String? = nil) async throws -> GatewayDependencies {
        var services = try await TestGateway(store: store, storeURL: storeURL, clock: clock.now).services
        services.consolePolicy.failureDelay = .zero
        // As a sandbox configuration read from a file gives each merchant (TestGateway's is built
        // in code): notifications only to orders that name a URL.
        services.merchants[TestGateway.merchantId]?.notifications = MerchantNotifications(url: nil, secret: Self.secret)
        return services
    }

    func application(_ services: GatewayDependencies) -> some ApplicationProtocol {
        buildApplication(services, logger: Logger(label: "test"))
    }

    /// The status of an authenticated API call with that password (an order that does not exist:
    /// 404 once the password is accepted, 401 when it is not).
    func apiStatus(_ client: some TestClientProtocol, password: String) async throws -> Int {
        let exchange = try await client.send(
            "/api/rest/version/100/merchant/TESTMERCHANT/order/no-such-order",
            method: .get,
            authorization: TestGateway.authorization(TestGateway.merchantId, password)
        )
        return Int(exchange.status.code)
    }

    /// The new password on the page that generated it.
    func newPassword(on page: ConsoleBrowser.Page) -> String? {
        guard let range = page.html.range(of: "New API password: <code>") else { return nil }
        return String(page.html[range.upperBound...].prefix { $0 != "<" })
    }

    @Test("an admin adds a second API password, moves to it and retires the first; each step as the API sees it", arguments: StoreKind.allCases)
    func rotation(store: StoreKind) async throws {
        let services = try await console(store)
        let configured = String(MerchantPasswords.digest(of: TestGateway.password).prefix(8))
        let added = try await application(services).test(.router) { client -> String in
            try await MerchantConsoleTests().addOperators(services)
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let page = try await browser.get("/ma/integration")
            #expect(page.status == .ok)
            #expect(page.html.contains("<code>\(configured)</code>"))
            #expect(page.html.contains("the only one"))
            #expect(!page.html.contains(TestGateway.password))

            let generated = try await browser.post("/ma/integration/passwords", [("csrf", page.hidden("csrf") ?? "")])
            #expect(generated.status == .ok)
            let password = try #require(newPassword(on: generated))
            #expect(password.count == 32 && password.allSatisfy(\.isHexDigit))
            let added = String(MerchantPasswords.digest(of: password).prefix(8))
            #expect(try await apiStatus(client, password: password) == 404)
            #expect(try await apiStatus(client, password: TestGateway.password) == 404)
            #expect(try await apiStatus(client, password: String(password.reversed())) == 401)

            // A third is refused while two are active; the password is never shown again.
            let third = try await browser.post("/ma/integration/passwords", [("csrf", page.hidden("csrf") ?? "")])
            #expect(third.status == .conflict)
            #expect(third.html.contains("retire one before generating another"))
            #expect(newPassword(on: third) == nil)
            #expect(!(try await browser.get("/ma/integration")).html.contains(password))

            let retired = try await browser.post("/ma/integration/passwords/\(configured)/retire", [("csrf", page.hidden("csrf") ?? "")])
            #expect(retired.status == .ok)
            #expect(try await apiStatus(client, password: TestGateway.password) == 401)
            #expect(try await apiStatus(client, password: password) == 404)

            // The last active password stays.
            let last = try await browser.post("/ma/integration/passwords/\(added)/retire", [("csrf", page.hidden("csrf") ?? "")])
            #expect(last.status == .conflict)
            #expect(try await apiStatus(client, password: password) == 404)

            let audit = try await browser.get("/ma/audit").html
            #expect(audit.contains("<td>API_PASSWORD_ADDED</td>"))
            #expect(audit.contains("<td>API_PASSWORD_RETIRED</td>"))
            #expect(!audit.contains(password))
            return added
        }

        // Another gateway on the same store (a restart, or a second replica) starts with the
        // rotation applied, though its configuration still names the first password.
        let restarted = try await console(store, storeURL: services.configuration.storeURL)
        try await application(restarted).test(.router) { client in
            #expect(try await apiStatus(client, password: TestGateway.password) == 401)
            let page = try await ConsoleBrowser(client).login(
                merchant: TestGateway.merchantId,
                name: "alice",
                password: MerchantConsoleTests.adminPassword
            )
            #expect(page.status == .seeOther)
            #expect(restarted.merchants[TestGateway.merchantId]?.passwords.active.map(\.fingerprint) == [added])
        }
    }

    @Test("a viewer sees the settings but cannot rotate a password or redeliver; the secret is shown to admins only")
    func viewer() async throws {
        let services = try await console(.sqlite)
        try await application(services).test(.router) { client in
            try await MerchantConsoleTests().addOperators(services)
            let secret = Self.secret
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            let page = try await browser.get("/ma/integration")
            #expect(page.status == .ok)
            #expect(!page.html.contains(secret))
            #expect(page.html.contains("…" + secret.suffix(4)))
            #expect(!page.html.contains("Generate a second API password"))
            let refused = try await browser.post("/ma/integration/passwords", [("csrf", page.hidden("csrf") ?? "")])
            #expect(refused.status == .forbidden)
            #expect(services.merchants[TestGateway.merchantId]?.passwords.active.count == 1)
            let forged = try await browser.post("/ma/integration/passwords", [("csrf", "0000")])
            #expect(forged.status == .forbidden)

            let admin = ConsoleBrowser(client)
            _ = try await admin.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            #expect(try await admin.get("/ma/integration").html.contains(secret))
        }
    }

    @Test("the delivery log lists the merchant's notifications; redeliver queues one again; another merchant's is not found")
    func deliveryLog() async throws {
        let services = try await console(.sqlite)
        let outbox = try #require(services.outbox)
        try await application(services).test(.router) { client in
            try await MerchantConsoleTests().addOperators(services)
            var body = try #require(try JSONSerialization.jsonObject(with: TestGateway.cardBody(amount: "56.56")) as? [String: Any])
            var order = body["order"] as? [String: Any] ?? [:]
            // A receiver nobody listens on: the notification fails its attempts and stays listed.
            order["notificationUrl"] = "http://127.0.0.1:9/notify"
            body["order"] = order
            let paid = try await client.put(TestGateway.path(order: "log-1", transaction: "1"), TestGateway.json(body))
            #expect(paid.string("result") == "SUCCESS")
            let listed = try await outbox.notifications(merchantId: TestGateway.merchantId, status: nil, limit: 10)
            let notification = try #require(listed.first { $0.orderId == "log-1" })

            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let page = try await browser.get("/ma/integration")
            #expect(page.html.contains("<a href=\"/ma/orders/log-1\">log-1</a>"))
            #expect(page.html.contains("/ma/integration/notifications/\(notification.id)/redeliver"))

            let redelivered = try await browser.post(
                "/ma/integration/notifications/\(notification.id)/redeliver",
                [("csrf", page.hidden("csrf") ?? "")]
            )
            #expect(redelivered.status == .ok)
            #expect(redelivered.html.contains("Notification \(notification.id) is queued again"))
            let after = try #require(try await outbox.notification(id: notification.id))
            #expect(after.status == .pending)
            #expect(try await browser.get("/ma/audit").html.contains("<td>NOTIFICATION_REDELIVERED</td>"))

            // OTHERMERCHANT's admin neither sees nor redelivers it.
            let other = ConsoleBrowser(client)
            _ = try await other.login(merchant: TestGateway.otherMerchantId, name: "oscar", password: MerchantConsoleTests.adminPassword)
            let otherPage = try await other.get("/ma/integration")
            #expect(!otherPage.html.contains("log-1"))
            let refused = try await other.post(
                "/ma/integration/notifications/\(notification.id)/redeliver",
                [("csrf", otherPage.hidden("csrf") ?? "")]
            )
            #expect(refused.status == .notFound)
        }
    }
}
