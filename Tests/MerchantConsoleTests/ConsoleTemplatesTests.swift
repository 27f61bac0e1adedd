import Testing

@testable import MerchantConsole

/// Every console template rendered with values an attacker could choose (an order id, a card
/// holder's name, a notification URL): they come out escaped, and each page has its parts.
@Suite("Console templates")
struct ConsoleTemplatesTests {
    static let hostile = #"<script>alert("x&y")</script>'"#
    static let escaped = "&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;&#39;"

    /// The layout's values for a logged-in operator, as `ConsoleRoutes.frame` gives them.
    static func frame(title: String = hostile, sandbox: Bool = true) -> [String: Any] {
        [
            "title": title,
            "session": ["csrf": hostile, "operator": hostile, "role": "admin", "merchant": hostile, "sandbox": sandbox],
        ]
    }

    static func render(_ template: String, _ values: [String: Any]) -> String {
        ConsolePages.shared.html(template, values)
    }

    static func occurrences(of part: String, in html: String) -> Int { html.components(separatedBy: part).count - 1 }

    /// Nothing of `hostile` came through as markup, and it came through escaped `count` times at least.
    static func expectEscaped(_ html: String, atLeast count: Int, _ template: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!html.contains("<script"), "\(template) let markup through", sourceLocation: sourceLocation)
        #expect(!html.contains(#"("x"#), "\(template) let a quote through", sourceLocation: sourceLocation)
        #expect(occurrences(of: escaped, in: html) >= count, "\(template): \(html)", sourceLocation: sourceLocation)
    }

    @Test("the layout: a document with the console's stylesheet, navigation and logout only with a session")
    func layout() {
        let page = Self.render("message", Self.frame().merging(["error": Self.hostile, "message": Self.hostile]) { $1 })
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>"))
        #expect(page.contains(#"<link rel="stylesheet" href="/ma/console.css">"#))
        #expect(page.contains(#"<form method="post" action="/ma/logout" class="logout">"#))
        #expect(page.contains(#"<input type="hidden" name="csrf" value="\#(Self.escaped)">"#))
        #expect(page.contains(#"<li><a href="/ma/sandbox">Sandbox payment</a></li>"#))
        #expect(page.contains(#"<p class="error" role="alert">\#(Self.escaped)</p>"#))
        #expect(page.contains(#"<p class="message" role="status">\#(Self.escaped)</p>"#))
        // title twice, operator, merchant, csrf, error, message
        Self.expectEscaped(page, atLeast: 7, "message")

        let loggedOut = Self.render("message", ["title": "Bad request", "error": "why"])
        #expect(!loggedOut.contains("/ma/logout") && !loggedOut.contains("<nav"))
        #expect(loggedOut.contains("<title>Bad request · Merchant Administration</title>"))
        #expect(!Self.render("message", Self.frame(sandbox: false)).contains("/ma/sandbox"))
    }

    @Test("login: its own CSRF token and the values typed before")
    func login() {
        let page = Self.render("login", ["title": "Log in", "loginToken": Self.hostile, "merchantId": Self.hostile, "name": Self.hostile])
        #expect(page.contains(#"<form method="post" action="/ma/login" class="stack">"#))
        #expect(page.contains(#"name="password" type="password""#) && !page.contains(#"name="password" value"#))
        Self.expectEscaped(page, atLeast: 3, "login")
    }

    @Test("orders: the filters as typed, each order's row and link, the paging links")
    func orders() {
        let order: [String: Any] = [
            "link": Self.hostile, "orderId": Self.hostile, "created": "2026-03-01", "status": "CAPTURED", "amount": "56.56 USD",
            "captured": "56.56", "refunded": "0.00", "wallet": "APPLE_PAY",
        ]
        let values = Self.frame().merging([
            "query": ["orderId": Self.hostile, "from": Self.hostile, "last4": Self.hostile, "applePay": true],
            "statuses": [["value": "CAPTURED", "selected": true], ["value": "AUTHORIZED", "selected": false]],
            "orders": [order], "page": 2, "previous": "page=1", "next": "page=3",
        ]) { $1 }
        let page = Self.render("orders", values)
        #expect(page.contains(#"<option value="CAPTURED" selected>CAPTURED</option>"#))
        #expect(page.contains(#"<option value="AUTHORIZED">AUTHORIZED</option>"#))
        #expect(page.contains(#"<option value="APPLE_PAY" selected>APPLE_PAY</option>"#))
        #expect(page.contains(#"<a href="/ma/orders/\#(Self.escaped)">\#(Self.escaped)</a>"#))
        #expect(page.contains("Orders, newest first (page 2)"))
        #expect(page.contains(#"<a href="/ma/orders?page=1" rel="prev">Newer</a>"#))
        #expect(page.contains(#"<a href="/ma/orders?page=3" rel="next">Older</a>"#))
        #expect(!page.contains("No orders match."))
        Self.expectEscaped(page, atLeast: 5, "orders")

        let none = Self.render("orders", Self.frame().merging(["orders": [[String: Any]](), "page": 1]) { $1 })
        #expect(none.contains("No orders match.") && !none.contains(#"rel="prev""#) && !none.contains(#"rel="next""#))
    }

    @Test("an order: totals, each transaction with its request and masked response, the forms only for admins")
    func order() {
        let transaction: [String: Any] = [
            "id": Self.hostile, "type": "AUTHORIZATION", "amount": "56.56", "result": "SUCCESS", "card": "512345xxxxxx0008",
            "acquirerMessage": Self.hostile, "response": #"{"order":{"id":"\#(Self.hostile)"}}"#,
            "request": ["operation": "AUTHORIZE", "nameOnCard": Self.hostile, "requestCard": "512345xxxxxx0008", "fields": Self.hostile],
            "authentication": ["transactionId": "auth-1", "status": "AUTHENTICATION_SUCCESSFUL", "eci": "05"],
        ]
        let values: [String: Any] = Self.frame().merging([
            "order": ["status": "AUTHORIZED", "amount": "56.56 USD", "currency": "USD", "wallet": Self.hostile],
            "link": "o%2F1", "admin": true, "csrf": Self.hostile, "captureId": "c1", "refundId": "r1", "voidId": "v1",
            "transactions": [transaction],
        ]) { $1 }
        let page = Self.render("order", values)
        for action in ["capture", "refund", "void"] {
            #expect(page.contains(#"<form method="post" action="/ma/orders/o%2F1/\#(action)" class="stack">"#), "\(action)")
        }
        #expect(page.contains(#"<input type="hidden" name="transactionId" value="c1">"#))
        #expect(page.contains("<h4>3-D Secure authentication</h4>") && page.contains("<dt>ECI</dt><dd>05</dd>"))
        #expect(page.contains("<dt>apiOperation</dt><dd>AUTHORIZE</dd>"))
        #expect(page.contains("<pre>{&quot;order&quot;:{&quot;id&quot;:&quot;\(Self.escaped)&quot;}}</pre>"))
        // id (twice: title and option), acquirer message, name on card, fields, wallet, csrf (layout and three forms)
        Self.expectEscaped(page, atLeast: 10, "order")

        let viewer = Self.render("order", values.merging(["admin": false]) { $1 })
        #expect(!viewer.contains("/capture") && !viewer.contains("/refund") && !viewer.contains("/void"))
        #expect(viewer.contains("<h2 id=\"transactions\">Transactions</h2>"))
    }

    @Test("the audit log: each entry's row")
    func audit() {
        let entry: [String: Any] = [
            "time": "2026-03-01 10:00", "operator": Self.hostile, "action": "LOGIN", "detail": Self.hostile, "address": "::1",
        ]
        let page = Self.render("audit", Self.frame().merging(["entries": [entry]]) { $1 })
        #expect(page.contains("<td>2026-03-01 10:00</td>") && page.contains("<td>LOGIN</td>") && page.contains("<td>::1</td>"))
        Self.expectEscaped(page, atLeast: 2 + 4, "audit")
    }

    @Test("Apple Pay certificates: each identity with its CSR link and expiry; the forms for admins")
    func certificates() {
        let identity: [String: Any] = [
            "merchantIdentifier": Self.hostile, "label": Self.hostile, "identifierPath": "merchant.a", "labelPath": "key-1",
            "expires": "2027-01-01", "warning": true,
        ]
        let values = Self.frame().merging([
            "identities": [identity], "admin": true, "csrf": Self.hostile, "directory": Self.hostile, "configuration": Self.hostile,
        ]) { $1 }
        let page = Self.render("certificates", values)
        #expect(page.contains(#"<a href="/ma/applepay/merchant.a/key-1.certSigningRequest" download>"#))
        #expect(page.contains(#"2027-01-01 <strong class="warning">expires within 30 days</strong>"#))
        #expect(page.contains(#"action="/ma/applepay/merchant.a/key-1/retire""#))
        #expect(page.contains(#"enctype="multipart/form-data""#))
        Self.expectEscaped(page, atLeast: 8, "certificates")

        let awaiting = Self.render("certificates", Self.frame().merging(["identities": [["label": "k"]]]) { $1 })
        #expect(awaiting.contains("awaiting Apple's certificate") && !awaiting.contains("/retire"))
        #expect(Self.render("certificates", Self.frame()).contains("No payment processing keys yet."))
    }

    @Test("sandbox: the payment form, and a link to the order it made")
    func sandbox() {
        let page = Self.render("sandbox", Self.frame().merging(["csrf": Self.hostile, "orderLink": "sandbox-1", "orderId": Self.hostile]) { $1 })
        #expect(page.contains(#"<form method="post" action="/ma/sandbox" class="stack">"#))
        #expect(page.contains(#"<a href="/ma/orders/sandbox-1">Open order \#(Self.escaped)</a>"#))
        Self.expectEscaped(page, atLeast: 2, "sandbox")
        #expect(!Self.render("sandbox", Self.frame()).contains("Open order"))
    }

    @Test("integration: the passwords, the notification settings and the delivery log with redeliver")
    func integration() {
        let notification: [String: Any] = [
            "id": 7, "order": Self.hostile, "orderPath": "o-1", "transaction": "1", "status": "FAILED", "attempts": 3,
            "created": "2026-03-01", "lastError": Self.hostile,
        ]
        let values = Self.frame().merging([
            "newPassword": Self.hostile, "passwords": [["fingerprint": "ab12", "origin": "configuration", "mayRetire": true]],
            "admin": true, "mayAdd": true, "csrf": Self.hostile, "notificationUrl": Self.hostile, "notificationSecret": Self.hostile,
            "outbox": true, "notifications": [notification],
        ]) { $1 }
        let page = Self.render("integration", values)
        #expect(page.contains(#"action="/ma/integration/passwords/ab12/retire""#))
        #expect(page.contains(#"<form method="post" action="/ma/integration/passwords" class="stack">"#))
        #expect(page.contains(#"action="/ma/integration/notifications/7/redeliver""#))
        #expect(page.contains(#"<a href="/ma/orders/o-1">\#(Self.escaped)</a>"#))
        Self.expectEscaped(page, atLeast: 7, "integration")

        let unconfigured = Self.render("integration", Self.frame())
        #expect(unconfigured.contains("Notifications are not configured for this merchant"))
        #expect(unconfigured.contains("<code>merchant.\(Self.escaped).notifications.url</code>"))
    }
}
