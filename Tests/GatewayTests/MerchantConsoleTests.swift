import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MerchantConsole
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore
@testable import GatewayStores

/// Merchant Administration through HTTP, as a browser drives it: login, search, the order page
/// and its actions, and each refusal (CSRF forgery, a viewer's refund, another merchant's order,
/// a stale session, lockout) changing nothing.
@Suite("Merchant Administration")
struct MerchantConsoleTests {
    static let adminPassword = "correct horse battery"
    static let viewerPassword = "viewer password 1"

    let clock = TestClock()

    /// The gateway on a new store of that kind; ``addOperators(_:)`` gives it an admin and a
    /// viewer for TESTMERCHANT and an admin for OTHERMERCHANT.
    /// `storeURL`: the store of another gateway (a second replica).
    func console(_ store: StoreKind = .sqlite, storeURL: String? = nil) async throws -> GatewayDependencies {
        var services = try await TestGateway(store: store, storeURL: storeURL, clock: clock.now).services
        services.consolePolicy.failureDelay = .zero
        return services
    }

    /// Once the application runs (PostgreSQL's pool and migrations start with it).
    func addOperators(_ services: GatewayDependencies) async throws {
        let consoleStore = try #require(services.consoleStore)
        // Few rounds: the hash is the same function, and the suite logs in many times.
        for (merchant, name, role, password) in [
            (TestGateway.merchantId, "alice", OperatorRole.admin, Self.adminPassword),
            (TestGateway.merchantId, "victor", .viewer, Self.viewerPassword),
            (TestGateway.otherMerchantId, "oscar", .admin, Self.adminPassword),
        ] {
            let hash = try PasswordHash(password: password, rounds: 1000)
            let added = try await consoleStore.insertOperator(StoredOperator(merchantId: merchant, name: name, role: role, passwordHash: hash))
            #expect(added)
        }
    }

    func application(_ services: GatewayDependencies) -> some ApplicationProtocol {
        buildApplication(services, logger: Logger(label: "test"))
    }

    /// A paid order of `amount` on TESTMERCHANT's card ending 0008.
    func pay(_ client: some TestClientProtocol, order: String, amount: String = "56.56") async throws {
        let paid = try await client.put(TestGateway.path(order: order, transaction: "1"), TestGateway.cardBody(amount: amount))
        #expect(paid.string("result") == "SUCCESS")
    }

    func order(_ client: some TestClientProtocol, _ orderId: String) async throws -> Exchange {
        try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/\(orderId)", method: .get)
    }

    @Test(
        "an admin logs in, finds the order, refunds from its page; the same form posted twice refunds once",
        arguments: StoreKind.allCases
    )
    func refund(store: StoreKind) async throws {
        let services = try await console(store)
        try await application(services).test(.router) { client in
            try await addOperators(services)
            try await pay(client, order: "ma-1")
            let browser = ConsoleBrowser(client)
            let login = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            #expect(login.status == .seeOther)
            #expect(login.location == "/ma/orders")

            let search = try await browser.get("/ma/orders?last4=0008&status=CAPTURED")
            #expect(search.status == .ok)
            #expect(search.html.contains("href=\"/ma/orders/ma-1\""))
            let none = try await browser.get("/ma/orders?last4=1111")
            #expect(!none.html.contains("href=\"/ma/orders/ma-1\""))

            let page = try await browser.get("/ma/orders/ma-1")
            #expect(page.status == .ok)
            #expect(page.html.contains("512345xxxxxx0008"))
            #expect(!page.html.contains("5123450000000008"))
            let refundId = try #require(page.hiddenValues("transactionId").dropFirst().first)
            let form = [("csrf", page.hidden("csrf") ?? ""), ("transactionId", refundId), ("amount", "10.00")]
            let refunded = try await browser.post("/ma/orders/ma-1/refund", form)
            #expect(refunded.status == .ok)
            #expect(refunded.html.contains("REFUND \(refundId): APPROVED"))
            _ = try await browser.post("/ma/orders/ma-1/refund", form)

            let order = try await order(client, "ma-1")
            #expect(order.value("totalRefundedAmount") as? Double == 10)
            #expect(order.string("status") == "PARTIALLY_REFUNDED")

            let audit = try await browser.get("/ma/audit")
            #expect(audit.html.contains("<td>REFUND</td>"))
            #expect(audit.html.contains("<td>LOGIN</td>"))
        }
    }

    @Test("a refund over what was captured is refused on the page by the API's own rule")
    func overRefund() async throws {
        let services = try await console()
        try await application(services).test(.router) { client in
            try await addOperators(services)
            try await pay(client, order: "ma-2")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            let page = try await browser.get("/ma/orders/ma-2")
            let refundId = try #require(page.hiddenValues("transactionId").dropFirst().first)
            let refused = try await browser.post(
                "/ma/orders/ma-2/refund",
                [("csrf", page.hidden("csrf") ?? ""), ("transactionId", refundId), ("amount", "100.00")]
            )
            #expect(refused.status == .badRequest)
            #expect(refused.html.contains("is more than the 56.56 available"))
            #expect(try await order(client, "ma-2").value("totalRefundedAmount") as? Double == 0)
        }
    }

    @Test("a form without the session's CSRF token is refused and changes nothing")
    func csrfForgery() async throws {
        let services = try await console()
        try await application(services).test(.router) { client in
            try await addOperators(services)
            try await pay(client, order: "ma-3")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            let page = try await browser.get("/ma/orders/ma-3")
            let refundId = try #require(page.hiddenValues("transactionId").dropFirst().first)
            for csrf in ["", "0000", String(repeating: "a", count: 64)] {
                let forged = try await browser.post(
                    "/ma/orders/ma-3/refund",
                    [("csrf", csrf), ("transactionId", refundId), ("amount", "10.00")]
                )
                #expect(forged.status == .forbidden)
            }
            let missing = try await browser.post("/ma/orders/ma-3/refund", [("transactionId", refundId), ("amount", "10.00")])
            #expect(missing.status == .forbidden)
            #expect(try await order(client, "ma-3").value("totalRefundedAmount") as? Double == 0)
            #expect(try await browser.get("/ma/audit").html.contains("<td>CSRF_REFUSED</td>"))

            // The login form has its own token: a login posted from elsewhere is refused.
            let stranger = ConsoleBrowser(client)
            let forgedLogin = try await stranger.post(
                "/ma/login",
                [("csrf", "x"), ("merchant", TestGateway.merchantId), ("name", "alice"), ("password", Self.adminPassword)]
            )
            #expect(forgedLogin.status == .forbidden)
            #expect(stranger.cookies["ma_session"] == nil)
        }
    }

    @Test("a viewer sees the order but cannot refund it")
    func viewerRefund() async throws {
        let services = try await console()
        try await application(services).test(.router) { client in
            try await addOperators(services)
            try await pay(client, order: "ma-4")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "victor", password: Self.viewerPassword)
            let page = try await browser.get("/ma/orders/ma-4")
            #expect(page.status == .ok)
            #expect(!page.html.contains("/ma/orders/ma-4/refund"))
            let refused = try await browser.post(
                "/ma/orders/ma-4/refund",
                [("csrf", page.hidden("csrf") ?? ""), ("transactionId", "ma-viewer-1"), ("amount", "10.00")]
            )
            #expect(refused.status == .forbidden)
            #expect(refused.html.contains("needs an admin"))
            #expect(try await order(client, "ma-4").value("totalRefundedAmount") as? Double == 0)
        }
    }

    @Test("another merchant's order id is not found, to look at or to act on")
    func otherMerchantsOrder() async throws {
        let services = try await console()
        try await application(services).test(.router) { client in
            try await addOperators(services)
            try await pay(client, order: "ma-5")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.otherMerchantId, name: "oscar", password: Self.adminPassword)
            let page = try await browser.get("/ma/orders/ma-5")
            #expect(page.status == .notFound)
            let search = try await browser.get("/ma/orders?orderId=ma-5")
            #expect(!search.html.contains("href=\"/ma/orders/ma-5\""))
            let own = try await browser.get("/ma/orders")
            let refused = try await browser.post(
                "/ma/orders/ma-5/refund",
                [("csrf", own.hidden("csrf") ?? ""), ("transactionId", "ma-other-1"), ("amount", "10.00")]
            )
            #expect(refused.status == .notFound)
            #expect(try await order(client, "ma-5").value("totalRefundedAmount") as? Double == 0)
        }
    }

    @Test("a session idle too long, logged out or never made is refused", arguments: StoreKind.allCases)
    func staleSession(store: StoreKind) async throws {
        let services = try await console(store)
        try await application(services).test(.router) { client in
            try await addOperators(services)
            try await pay(client, order: "ma-6")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            let page = try await browser.get("/ma/orders/ma-6")
            let csrf = page.hidden("csrf") ?? ""
            let refundId = try #require(page.hiddenValues("transactionId").dropFirst().first)
            clock.advance(by: services.consolePolicy.idleTimeout + 1)
            let stale = try await browser.get("/ma/orders/ma-6")
            #expect(stale.status == .seeOther)
            #expect(stale.location == "/ma/login")
            let refused = try await browser.post(
                "/ma/orders/ma-6/refund",
                [("csrf", csrf), ("transactionId", refundId), ("amount", "10.00")]
            )
            #expect(refused.status == .unauthorized)
            #expect(try await order(client, "ma-6").value("totalRefundedAmount") as? Double == 0)

            // Logging out ends the session in the store: its cookie, replayed, is refused.
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            let cookie = try #require(browser.cookies["ma_session"])
            let orders = try await browser.get("/ma/orders")
            _ = try await browser.post("/ma/logout", [("csrf", orders.hidden("csrf") ?? "")])
            let replay = ConsoleBrowser(client)
            replay.cookies["ma_session"] = cookie
            #expect(try await replay.get("/ma/orders").status == .seeOther)
        }
    }

    @Test("failed logins lock the operator out, even with the right password, until the lockout ends")
    func lockout() async throws {
        let services = try await console()
        try await application(services).test(.router) { client in
            try await addOperators(services)
            let browser = ConsoleBrowser(client)
            for _ in 1..<services.consolePolicy.operatorFailureLimit {
                let wrong = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: "wrong password")
                #expect(wrong.status == .unauthorized)
            }
            // Locked, and answered as a wrong password is: the page does not say the name exists.
            let locking = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: "wrong password")
            #expect(locking.status == .unauthorized)
            let right = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            #expect(right.status == .unauthorized)
            #expect(right.html.contains("Login refused"))
            #expect(browser.cookies["ma_session"] == nil)
            clock.advance(by: services.consolePolicy.operatorLockout + 1)
            let later = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            #expect(later.status == .seeOther)
        }
    }

    @Test("a login that finds the password line full is refused at once, unhashed and uncounted, a locked operator's as an unknown name's")
    func passwordLineFull() async throws {
        var busyServices = try await console()
        busyServices.passwordChecks = PasswordCheckQueue(capacity: 0)
        let services = busyServices
        try await application(services).test(.router) { client in
            try await addOperators(services)
            let consoleStore = try #require(services.consoleStore)
            let browser = ConsoleBrowser(client)
            let busy = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.html.contains("Too many logins are being checked at once"))
            #expect(browser.cookies["ma_session"] == nil)
            let alice = try await consoleStore.consoleOperator(merchantId: TestGateway.merchantId, name: "alice")
            #expect(alice?.failedLogins == 0)
            #expect(try await consoleStore.loginFailures(address: "127.0.0.1", since: .distantPast) == 0)
            // A locked-out operator waits for the line as an unknown name does (answering a lockout
            // at once would tell the name exists): the same busy answer for both.
            var locked = try #require(alice)
            locked.lockedUntil = clock.now().addingTimeInterval(60)
            _ = try await consoleStore.updateOperator(locked)
            let refused = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: Self.adminPassword)
            let unknown = try await browser.login(merchant: TestGateway.merchantId, name: "nobody", password: Self.adminPassword)
            #expect(refused.status == .serviceUnavailable)
            #expect(unknown.status == refused.status)
        }
    }
}
