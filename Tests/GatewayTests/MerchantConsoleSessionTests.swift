import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayAdministration
@testable import GatewayCore
@testable import GatewayStores

/// The console's sessions and logins through HTTP: the cookie's attributes, absolute expiry,
/// the lockout of an address, the pause after a failed login, a session shared by two replicas
/// of one PostgreSQL store, and a new password ending the operator's sessions.
@Suite("Merchant Administration: sessions and logins")
struct MerchantConsoleSessionTests {
    let console = MerchantConsoleTests()

    /// The Set-Cookie header that sets `name` (not one that clears it).
    func setCookie(_ name: String, in page: ConsoleBrowser.Page) -> String? {
        page.setCookies.first { $0.hasPrefix("\(name)=") && !$0.contains("Max-Age=0") }
    }

    @Test("the session cookie is HttpOnly, SameSite=Strict and scoped to /ma; Secure when the gateway serves HTTPS")
    func cookieAttributes() async throws {
        for servesTLS in [false, true] {
            var configured = try await console.console()
            // The assembly reads the configuration, not the listener: under `server.tls.*` the
            // cookie is Secure whatever socket a request came in on, so the router shows it.
            if servesTLS { configured.configuration.tls = .init(certificatePath: "unused.pem", privateKeyPath: "unused-key.pem") }
            let services = configured
            try await console.application(services).test(.router) { client in
                try await console.addOperators(services)
                let browser = ConsoleBrowser(client)
                let login = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
                #expect(login.status == .seeOther)
                let cookie = try #require(setCookie("ma_session", in: login))
                let attributes = Set(cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(attributes.contains("HttpOnly"))
                #expect(attributes.contains("SameSite=Strict"))
                #expect(attributes.contains("Path=/ma"))
                #expect(attributes.contains("Secure") == servesTLS, "\(cookie)")
                // The login form's own cookie carries the same attributes.
                let form = try await ConsoleBrowser(client).get("/ma/login")
                let loginCookie = try #require(setCookie("ma_login", in: form))
                #expect(loginCookie.contains("HttpOnly") && loginCookie.contains("SameSite=Strict"))
                #expect(loginCookie.contains("Secure") == servesTLS)
            }
        }
    }

    @Test("a session used without pause still ends at the absolute limit", arguments: StoreKind.allCases)
    func absoluteExpiry(store: StoreKind) async throws {
        var configured = try await console.console(store)
        configured.consolePolicy.idleTimeout = 600
        configured.consolePolicy.absoluteLifetime = 1800
        let services = configured
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            // Every 500 s, inside the idle limit: each request keeps the session from going idle.
            for _ in 1...3 {
                console.clock.advance(by: 500)
                #expect(try await browser.get("/ma/orders").status == .ok)
            }
            console.clock.advance(by: 301)  // 1801 s after the login, 301 s after the last use
            let ended = try await browser.get("/ma/orders")
            #expect(ended.status == .seeOther)
            #expect(ended.location == "/ma/login")
            let csrf = try await browser.get("/ma/orders").hidden("csrf") ?? ""
            #expect(try await browser.post("/ma/logout", [("csrf", csrf)]).status == .unauthorized)
        }
    }

    @Test("failed logins for different operators from one address lock the address, right password or not")
    func addressLockout() async throws {
        var configured = try await console.console()
        configured.consolePolicy.addressFailureLimit = 3
        let services = configured
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = ConsoleBrowser(client)
            // Each operator fails once: far below the operator limit (5), three from the address.
            for (merchant, name) in [
                (TestGateway.merchantId, "alice"), (TestGateway.merchantId, "victor"), (TestGateway.otherMerchantId, "oscar"),
            ] {
                let wrong = try await browser.login(merchant: merchant, name: name, password: "wrong password")
                #expect(wrong.status == .unauthorized)
            }
            for (merchant, name, password) in [
                (TestGateway.merchantId, "alice", MerchantConsoleTests.adminPassword),
                (TestGateway.merchantId, "victor", MerchantConsoleTests.viewerPassword),
            ] {
                let locked = try await browser.login(merchant: merchant, name: name, password: password)
                #expect(locked.status == .tooManyRequests)
                #expect(locked.html.contains("Too many failed logins from this address"))
            }
            #expect(browser.cookies["ma_session"] == nil)
            console.clock.advance(by: services.consolePolicy.addressWindow + 1)
            let later = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            #expect(later.status == .seeOther)
        }
    }

    @Test("a failed login is answered only after the configured pause")
    func failureDelay() async throws {
        var configured = try await console.console()
        let delay = Duration.milliseconds(300)
        configured.consolePolicy.failureDelay = delay
        let services = configured
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = ConsoleBrowser(client)
            for (name, password) in [("alice", "wrong password"), ("nobody", "any password")] {
                let form = try await browser.get("/ma/login")
                let started = ContinuousClock.now
                let wrong = try await browser.post(
                    "/ma/login",
                    [("csrf", form.hidden("csrf") ?? ""), ("merchant", TestGateway.merchantId), ("name", name), ("password", password)]
                )
                let elapsed = ContinuousClock.now - started
                #expect(wrong.status == .unauthorized)
                #expect(elapsed >= delay, "\(name): answered after \(elapsed)")
            }
        }
    }

    @Test("a session made through one replica is accepted by another on the same PostgreSQL store")
    func replicaSession() async throws {
        let first = try await console.console(.postgres)
        let second = try await console.console(storeURL: first.configuration.storeURL)
        try await console.application(first).test(.router) { firstClient in
            try await console.addOperators(first)
            try await console.pay(firstClient, order: "ma-replica")
            let browser = ConsoleBrowser(firstClient)
            let login = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            #expect(login.status == .seeOther)
            let cookie = try #require(browser.cookies["ma_session"])
            try await console.application(second).test(.router) { secondClient in
                let elsewhere = ConsoleBrowser(secondClient)
                elsewhere.cookies["ma_session"] = cookie
                let page = try await elsewhere.get("/ma/orders/ma-replica")
                #expect(page.status == .ok)
                #expect(page.html.contains("alice"))
                // The CSRF token is the session's, from the store: a form works on this replica too.
                let refundId = try #require(page.hiddenValues("transactionId").dropFirst().first)
                let refunded = try await elsewhere.post(
                    "/ma/orders/ma-replica/refund",
                    [("csrf", page.hidden("csrf") ?? ""), ("transactionId", refundId), ("amount", "1.00")]
                )
                #expect(refunded.status == .ok)
                #expect(refunded.html.contains("REFUND \(refundId): APPROVED"))
                // Logging out here ends the session on the first replica.
                _ = try await elsewhere.post("/ma/logout", [("csrf", page.hidden("csrf") ?? "")])
            }
            #expect(try await browser.get("/ma/orders").status == .seeOther)
        }
    }

    @Test("a new password from `gateway operator passwd` ends the operator's sessions", arguments: StoreKind.allCases)
    func passwordEndsSessions(store: StoreKind) async throws {
        let services = try await console.console(store)
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let alice = ConsoleBrowser(client)
            _ = try await alice.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let victor = ConsoleBrowser(client)
            _ = try await victor.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            #expect(try await alice.get("/ma/orders").status == .ok)

            // What `gateway operator passwd` does to the store (OperatorCommandTests runs the command).
            try await OperatorAdministration.setPassword(
                try PasswordHash(password: "a new passphrase", rounds: 1000),
                merchantId: TestGateway.merchantId,
                name: "alice",
                in: try #require(services.consoleStore),
                at: Date()
            )
            #expect(try await alice.get("/ma/orders").status == .seeOther)
            #expect(try await victor.get("/ma/orders").status == .ok, "another operator's session stays")
            let again = try await alice.login(merchant: TestGateway.merchantId, name: "alice", password: "a new passphrase")
            #expect(again.status == .seeOther)
            #expect(try await victor.get("/ma/audit").html.contains("<td>PASSWORD_CHANGED</td>"))
        }
    }
}
