import BlockingWork
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import Gateway
@testable import GatewayCore
@testable import MPGSAPI

/// Hosted Checkout over TCP, as a merchant's server (INITIATE_CHECKOUT), the gateway's script
/// (`/api/page/version/{v}/pay`) and the payer's browser (the page's forms) call it. The
/// browser itself, with the real script, is `.ci/hosted-checkout-browser-test`.
@Suite("Hosted Checkout")
struct HostedCheckoutTests {
    static let returnUrl = "https://shop.example/return?order=7"

    static func initiate(
        version: Int = 100,
        operation: String = "PURCHASE",
        amount: String? = "56.56",
        extra: [String: Any] = [:],
        interaction: [String: Any] = [:]
    ) -> Data {
        var order: [String: Any] = ["id": "hc-\(UUID().uuidString.prefix(8))", "currency": "USD", "description": "Two sandbox widgets"]
        if let amount { order["amount"] = amount }
        var interactionFields: [String: Any] = ["operation": operation, "returnUrl": returnUrl, "merchant": ["name": "Sandbox Shop"]]
        interactionFields.merge(interaction) { $1 }
        var body: [String: Any] = [
            "apiOperation": version >= 63 ? "INITIATE_CHECKOUT" : "CREATE_CHECKOUT_SESSION", "order": order, "interaction": interactionFields,
        ]
        body.merge(extra) { $1 }
        return TestGateway.json(body)
    }

    // MARK: - INITIATE_CHECKOUT

    @Test("INITIATE_CHECKOUT answers the gateway's shape, keys sorted; CREATE_CHECKOUT_SESSION before 63 has no checkoutMode")
    func initiateCheckout() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let created = try await client.send(SessionRequests.sessionsPath(), method: .post, body: Self.initiate())
            #expect(created.status == .created, "\(created.body)")
            #expect(created.body.hasPrefix(#"{"checkoutMode":"WEBSITE","merchant":"TESTMERCHANT","result":"SUCCESS","session":{"id":"SESSION"#))
            #expect(created.string("session.updateStatus") == "SUCCESS")
            #expect(created.string("session.version")?.count == 10)
            let indicator = try #require(created.string("successIndicator"))
            #expect(indicator.count == 16 && indicator.allSatisfy(\.isHexDigit))

            let legacy = try await client.send(
                SessionRequests.sessionsPath(version: 61),
                method: .post,
                body: Self.initiate(version: 61, amount: nil)
            )
            #expect(legacy.status == .created, "\(legacy.body)")
            #expect(legacy.body.hasPrefix(#"{"merchant":"TESTMERCHANT","result":"SUCCESS","session":{"id":"SESSION"#))
            #expect(legacy.json["checkoutMode"] == nil)
        }
    }

    @Test(
        "a misplaced or invalid checkout field is named, and no session is made",
        arguments: [
            (100, #"{"interaction":{"operation":"PURCHASE","colour":"red"}}"#, "interaction.colour"),
            (100, #"{"interaction":{"operation":"PAY"}}"#, "interaction.operation"),
            (100, #"{"interaction":{"returnUrl":"https://shop.example/r"}}"#, "interaction.operation"),
            (100, #"{"interaction":{"operation":"PURCHASE","returnUrl":"not a url"}}"#, "interaction.returnUrl"),
            (100, #"{"interaction":{"operation":"PURCHASE","timeout":999999}}"#, "interaction.timeout"),
            (61, #"{"apiOperation":"INITIATE_CHECKOUT"}"#, "apiOperation"),
            (100, #"{"apiOperation":"CREATE_CHECKOUT_SESSION"}"#, "apiOperation"),
            (100, #"{"order":{"id":"x","currency":"USD"}}"#, "order.amount"),
            (100, #"{"checkoutMode":"PAYMENT_LINK"}"#, "checkoutMode"),
            (100, #"{"sourceOfFunds":{"type":"CARD"}}"#, "sourceOfFunds"),
        ]
    )
    func refusals(version: Int, replacing: String, field: String) async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            var body = try #require(try JSONSerialization.jsonObject(with: Self.initiate(version: version)) as? [String: Any])
            let replacement = try #require(try JSONSerialization.jsonObject(with: Data(replacing.utf8)) as? [String: Any])
            body.merge(replacement) { $1 }
            let refused = try await client.send(SessionRequests.sessionsPath(version: version), method: .post, body: TestGateway.json(body))
            #expect(refused.status == .badRequest, "\(refused.body)")
            #expect(refused.string("error.field") == field, "\(refused.body)")
            #expect(refused.string("result") == "ERROR")
        }
    }

    @Test("a null returnUrl (PrestaShop sends one) counts as absent")
    func nullReturnUrl() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let created = try await client.send(
                SessionRequests.sessionsPath(),
                method: .post,
                body: Self.initiate(interaction: ["returnUrl": NSNull()])
            )
            #expect(created.status == .created, "\(created.body)")
        }
    }

    // MARK: - The page

    @Test("pay by card: the page, an approved PAY, back to returnUrl with resultIndicator == successIndicator; replays pay nothing")
    func approvedCard() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let page = try await checkout.page(client)
            #expect(page.status == .ok)
            #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            for token in ["cc-number", "cc-exp-month", "cc-exp-year", "cc-csc", "cc-name"] {
                #expect(page.body.contains("autocomplete=\"\(token)\""), "\(token)")
            }
            #expect(page.body.contains("Sandbox Shop"))
            #expect(page.body.contains("56.56"))
            #expect(!page.body.contains(checkout.successIndicator))

            let paid = try await checkout.submit(client, page: page, expiry: ("01", "39"))
            #expect(paid.status == .seeOther, "\(paid.body)")
            let location = try #require(paid.headers[.location])
            #expect(location.hasPrefix(Self.returnUrl + "&resultIndicator=\(checkout.successIndicator)&sessionVersion="))

            let order = try await client.send(
                TestGateway.path(order: checkout.orderId, transaction: "x").replacingOccurrences(of: "/transaction/x", with: ""),
                method: .get
            )
            #expect(order.string("status") == "CAPTURED", "\(order.body)")
            let types = (order.value("transaction") as? [[String: Any]])?.compactMap { ($0["transaction"] as? [String: Any])?["type"] as? String }
            #expect(types == ["AUTHENTICATION", "PAYMENT"], "\(order.body)")
            // Mastercard's Java sample reads the first transaction's order.description.
            let first = (order.value("transaction") as? [[String: Any]])?.first?["order"] as? [String: Any]
            #expect(first?["description"] as? String == "Two sandbox widgets", "\(order.body)")

            // The same form again, and the page again: the session is used up.
            let replayed = try await checkout.submit(client, page: page, expiry: ("01", "39"))
            #expect(replayed.status == .notFound)
            #expect(try await checkout.page(client).status == .notFound)
            let after = try await client.send(
                TestGateway.path(order: checkout.orderId, transaction: "x").replacingOccurrences(of: "/transaction/x", with: ""),
                method: .get
            )
            #expect((after.value("transaction") as? [Any])?.count == 2)
        }
    }

    @Test("a decline lets the payer try again, then an approval completes")
    func declinedThenApproved() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate(operation: "AUTHORIZE"))
            let page = try await checkout.page(client)
            let declined = try await checkout.submit(client, page: page, expiry: ("05", "39"))
            #expect(declined.status == .ok)
            #expect(declined.body.contains("declined"))
            let approved = try await checkout.submit(client, page: declined, expiry: ("01", "39"))
            #expect(approved.status == .seeOther, "\(approved.body)")
            #expect(approved.headers[.location]?.contains("resultIndicator=\(checkout.successIndicator)") == true)
            let order = try await client.send(checkout.orderPath, method: .get)
            #expect(order.string("status") == "AUTHORIZED", "\(order.body)")
        }
    }

    @Test("field errors in words; a form made for another session pays nothing")
    func fieldErrorsAndForeignForm() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let page = try await checkout.page(client)
            let invalid = try await checkout.submit(client, page: page, number: "4111 1111 1111 1112", expiry: ("13", "39"))
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.body.contains("Enter a valid card number"))
            #expect(invalid.body.contains("Enter the expiry month as two digits"))
            #expect(!invalid.body.contains("4111 1111 1111 1112") && !invalid.body.contains("4111111111111112"))

            let other = try await Checkout.start(client, Self.initiate())
            let foreign = try await other.submit(client, page: page, expiry: ("01", "39"))
            #expect(foreign.status == .forbidden)
            let order = try await client.send(other.orderPath, method: .get)
            #expect(order.status == .notFound)
        }
    }

    @Test("3-D Secure challenge: to the sandbox ACS and back, then paid")
    func challenge() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let page = try await checkout.page(client)
            let redirect = try await checkout.submit(client, page: page, number: "5123456789012346", expiry: ("01", "39"))
            #expect(redirect.status == .ok)
            let creq = try #require(Self.attribute(named: "creq", in: redirect.body))
            #expect(redirect.body.contains("/acs/challenge"))
            let answered = try await Self.form(client, "/acs/challenge/result", ["creq": creq, "code": "1234"])
            // The ACS page posts the result back to the checkout's return address.
            let orderId = try #require(Self.attribute(named: "order.id", in: answered.body))
            let transactionId = try #require(Self.attribute(named: "transaction.id", in: answered.body))
            #expect(answered.body.contains("/checkout/pay/\(checkout.sessionId)/authenticated"))
            let back = try await Self.form(
                client,
                "/checkout/pay/\(checkout.sessionId)/authenticated?mode=page",
                ["order.id": orderId, "transaction.id": transactionId, "result": "SUCCESS"]
            )
            #expect(back.status == .seeOther, "\(back.body)")
            #expect(back.headers[.location]?.contains("resultIndicator=\(checkout.successIndicator)") == true)
            let order = try await client.send(checkout.orderPath, method: .get)
            #expect(order.string("status") == "CAPTURED", "\(order.body)")
        }
    }

    @Test("operation NONE keeps the card in the session; the merchant pays with session.id")
    func collectOnly() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate(version: 61, operation: "NONE"), version: 61)
            let page = try await checkout.page(client)
            let saved = try await checkout.submit(client, page: page, expiry: ("01", "39"))
            #expect(saved.status == .seeOther, "\(saved.body)")
            #expect(try await client.send(checkout.orderPath, method: .get).status == .notFound)
            let paid = try await client.put(
                TestGateway.path(order: checkout.orderId, transaction: "1", version: 61),
                SessionRequests.payment(checkout.sessionId)
            )
            #expect(paid.status == .created, "\(paid.body)")
            #expect(paid.string("response.gatewayCode") == "APPROVED")
            #expect(paid.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
        }
    }

    @Test("legacy: CREATE_CHECKOUT_SESSION without an amount, completed by Checkout.configure's order.amount")
    func legacyConfigure() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(
                client,
                Self.initiate(version: 61, amount: nil),
                version: 61,
                configured: ["order.amount": "57.58", "order.description": "from configure"]
            )
            let page = try await checkout.page(client)
            #expect(page.body.contains("57.58"))
            #expect(page.body.contains("Two sandbox widgets"), "the session's description wins")
            let paid = try await checkout.submit(client, page: page, expiry: ("01", "39"))
            #expect(paid.status == .seeOther, "\(paid.body)")
            let order = try await client.send(checkout.orderPath, method: .get)
            #expect(order.string("amount") == "57.58" || (order.value("amount") as? NSNumber)?.doubleValue == 57.58, "\(order.body)")
        }
    }

    @Test("Cancel goes to cancelUrl, or back to the merchant page's #__hc-action-cancel; nothing paid")
    func cancel() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let page = try await checkout.page(client)
            let token = try #require(Self.attribute(named: "formToken", in: page.body))
            let cancelled = try await Self.form(client, "/checkout/pay/\(checkout.sessionId)/cancel", ["formToken": token, "mode": "page"])
            #expect(cancelled.status == .seeOther)
            #expect(cancelled.headers[.location] == "https://shop.example/checkout#__hc-action-cancel")
            #expect(try await client.send(checkout.orderPath, method: .get).status == .notFound)
        }
    }

    @Test("the payer's time runs out: the page and its form send the browser to timeoutUrl, and nothing is paid")
    func timeout() async throws {
        let clock = TestClock()
        let gateway = try await TestGateway(clock: clock.now)
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(
                client,
                Self.initiate(interaction: ["timeout": 60, "timeoutUrl": "https://shop.example/timeout"])
            )
            let page = try await checkout.page(client)
            #expect(page.status == .ok)
            #expect(page.body.contains("\"secondsLeft\":") && !page.body.contains("\"secondsLeft\":0"))
            clock.advance(by: 61)
            let late = try await checkout.submit(client, page: page, expiry: ("01", "39"))
            #expect(late.status == .seeOther)
            #expect(late.headers[.location] == "https://shop.example/timeout")
            let again = try await checkout.page(client)
            #expect(again.headers[.location] == "https://shop.example/timeout")
            #expect(try await client.send(checkout.orderPath, method: .get).status == .notFound)
        }
    }

    @Test("the embedded page may be framed by any origin and tells its parent how it ended; the full page may not be framed")
    func embedded() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let framed = try await client.send("/checkout/embedded/\(checkout.sessionId)", method: .get, authorization: nil)
            #expect(framed.status == .ok)
            #expect(framed.headers[.contentSecurityPolicy]?.contains("frame-ancestors *") == true)
            #expect(framed.headers[HTTPField.Name("X-Frame-Options")!] == nil)
            #expect(!framed.body.contains("apple-pay-button"), "Apple Pay only on the full page")
            let full = try await checkout.page(client)
            #expect(full.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            #expect(full.body.contains("apple-pay-button"), "the sandbox merchant has an Apple Pay identity")

            let token = try #require(Self.attribute(named: "formToken", in: framed.body))
            let paid = try await Self.form(
                client,
                "/checkout/pay/\(checkout.sessionId)",
                [
                    "formToken": token, "mode": "embedded", "cardNumber": "5123450000000008", "expiryMonth": "01", "expiryYear": "39",
                    "securityCode": "100",
                ]
            )
            #expect(paid.status == .ok)
            #expect(paid.headers[.contentSecurityPolicy]?.contains("frame-ancestors *") == true)
            #expect(paid.body.contains(#"<script type="application/json" id="parent-message">"#))
            #expect(paid.body.contains("\"resultIndicator\":\"\(checkout.successIndicator)\""))
            #expect(paid.body.contains("\"event\":\"complete\""))
            #expect(paid.body.contains("https://shop.example/return?order=7"))
        }
    }

    @Test("order.notificationUrl from INITIATE_CHECKOUT: the page's payment queues the merchant's notification")
    func notification() async throws {
        var services = try await TestGateway().services
        services.merchants[TestGateway.merchantId]?.notifications = MerchantNotifications(url: nil, secret: "whsec-0123456789abcdef")
        let outbox = try #require(services.outbox)
        try await buildApplication(services, logger: Logger(label: "test")).test(.live) { client in
            var body = try #require(try JSONSerialization.jsonObject(with: Self.initiate()) as? [String: Any])
            var order = try #require(body["order"] as? [String: Any])
            order["notificationUrl"] = "http://127.0.0.1:9/notify"
            body["order"] = order
            let checkout = try await Checkout.start(client, TestGateway.json(body))
            let paid = try await checkout.submit(client, page: try await checkout.page(client), expiry: ("01", "39"))
            #expect(paid.status == .seeOther)
            let queued = try await outbox.notifications(merchantId: TestGateway.merchantId, status: nil, limit: 10)
            #expect(queued.contains { $0.orderId == checkout.orderId })
        }
    }

    @Test("what the merchant gave is text on the page, never markup; the page loads only the gateway's own files")
    func hostileMerchantText() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            var body = try #require(try JSONSerialization.jsonObject(with: Self.initiate()) as? [String: Any])
            var order = try #require(body["order"] as? [String: Any])
            order["description"] = "</script><script>alert(1)</script>"
            order["item"] = [["name": "<b onmouseover=alert(2)>", "quantity": "1", "unitPrice": "56.56"]]
            body["order"] = order
            body["interaction"] = ["operation": "PURCHASE", "merchant": ["name": "<img src=x onerror=alert(3)>"]]
            let checkout = try await Checkout.start(client, TestGateway.json(body))
            let page = try await checkout.page(client)
            #expect(page.status == .ok)
            #expect(!page.body.contains("<script>alert"))
            #expect(!page.body.contains("<img src=x"))
            #expect(!page.body.contains("<b onmouseover"))
            #expect(page.body.contains("&lt;img src=x onerror=alert(3)&gt;"))
            // Scripts: the gateway's own files and JSON data only, nothing inline that runs.
            for tag in page.body.components(separatedBy: "<script").dropFirst() {
                let opening = tag.prefix { $0 != ">" }
                #expect(opening.contains("type=\"application/json\"") || opening.contains("src=\"/"), "\(opening)")
            }
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
        }
    }

    @Test("the form posted from several windows at once pays once", .blocksThreads)
    func concurrentSubmits() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let page = try await checkout.page(client)
            let token = try #require(Self.attribute(named: "formToken", in: page.body))
            let form = Array(
                "formToken=\(token)&mode=page&cardNumber=5555555555554444&expiryMonth=01&expiryYear=39&securityCode=100".utf8
            )
            let port = try #require(client.port)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await LoopbackClient(port: port, source: "127.0.0.1").send(
                            "POST",
                            "/checkout/pay/\(checkout.sessionId)",
                            headers: [("Content-Type", "application/x-www-form-urlencoded")],
                            body: form
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 303 }.count == 1, "one window completes: \(statuses)")
            let order = try await client.send(checkout.orderPath, method: .get)
            let payments = (order.value("transaction") as? [[String: Any]])?.filter {
                ($0["transaction"] as? [String: Any])?["type"] as? String == "PAYMENT" && $0["result"] as? String == "SUCCESS"
            }
            #expect(payments?.count == 1, "\(order.body)")
        }
    }

    @Test("while a payment holds the session, the page and its form write nothing that would free it")
    func claimedSessionStaysClaimed() async throws {
        let gateway = try await TestGateway()
        let sessions = gateway.services.sessionService
        try await gateway.application.test(.live) { client in
            let checkout = try await Checkout.start(client, Self.initiate())
            let page = try await checkout.page(client)
            // A payment from another window has claimed the session and is being processed.
            let opened = try #require(try await sessions.open(id: checkout.sessionId, merchantId: TestGateway.merchantId))
            _ = try await sessions.claimForPayment(opened)

            let second = try await checkout.submit(client, page: page, expiry: ("01", "39"))
            #expect(second.status == .ok)
            #expect(second.body.contains("being processed"))
            let shown = try await Self.form(
                client,
                "/api/page/version/100/pay",
                ["session.id": checkout.sessionId],
                accept: "application/json"
            )
            #expect(shown.status != .ok, "\(shown.body)")
            let after = try #require(try await sessions.open(id: checkout.sessionId, merchantId: TestGateway.merchantId))
            #expect(after.stored.updateStatus == .claimedForPayment, "the claim still holds")
            #expect(try await client.send(checkout.orderPath, method: .get).status == .notFound, "nothing was paid")
        }
    }

    // MARK: - Support

    /// A checkout session made by the merchant and shown by the script.
    struct Checkout {
        var sessionId: String
        var successIndicator: String
        var orderId: String
        var version: Int

        var orderPath: String {
            "/api/rest/version/\(version)/merchant/\(TestGateway.merchantId)/order/\(orderId)"
        }

        static func start(
            _ client: some TestClientProtocol,
            _ body: Data,
            version: Int = 100,
            configured: [String: String] = [:]
        ) async throws -> Checkout {
            let created = try await client.send(SessionRequests.sessionsPath(version: version), method: .post, body: body)
            try #require(created.status == .created, "\(created.body)")
            let request = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let checkout = Checkout(
                sessionId: try #require(created.string("session.id")),
                successIndicator: try #require(created.string("successIndicator")),
                orderId: try #require((request["order"] as? [String: Any])?["id"] as? String),
                version: version
            )
            var fields = [
                "session.id": checkout.sessionId, "checkout.mode": "PAYMENT_PAGE",
                "interaction.cancelUrl": "https://shop.example/checkout#__hc-action-cancel",
                "interaction.completeUrl": "https://shop.example/checkout#__hc-action-complete",
            ]
            fields.merge(configured) { $1 }
            let shown = try await HostedCheckoutTests.form(client, "/api/page/version/\(version)/pay", fields, accept: "application/json")
            try #require(shown.status == .ok, "\(shown.body)")
            try #require(shown.string("redirectURL") == "/checkout/pay/\(checkout.sessionId)")
            return checkout
        }

        func page(_ client: some TestClientProtocol) async throws -> Exchange {
            try await client.send("/checkout/pay/\(sessionId)", method: .get, authorization: nil)
        }

        func submit(
            _ client: some TestClientProtocol,
            page: Exchange,
            number: String = "5123450000000008",
            expiry: (String, String)
        ) async throws -> Exchange {
            let token = try #require(HostedCheckoutTests.attribute(named: "formToken", in: page.body))
            return try await HostedCheckoutTests.form(
                client,
                "/checkout/pay/\(sessionId)",
                [
                    "formToken": token, "mode": "page", "cardNumber": number, "expiryMonth": expiry.0, "expiryYear": expiry.1,
                    "securityCode": "100", "nameOnCard": "A Payer",
                ]
            )
        }
    }

    static func form(
        _ client: some TestClientProtocol,
        _ path: String,
        _ fields: [String: String],
        accept: String? = nil
    ) async throws -> Exchange {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map {
            "\($0.key.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }
        .joined(separator: "&")
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let accept { headers[.accept] = accept }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body)) { response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return Exchange(status: response.status, body: text, json: json, headers: response.headers)
        }
    }

    /// The value of the (hidden) input named `name` in an HTML page.
    static func attribute(named name: String, in html: String) -> String? {
        guard let nameRange = html.range(of: "name=\"\(name)\"") else { return nil }
        // The value attribute of the same tag, before or after the name.
        let tagStart = html[..<nameRange.lowerBound].lastIndex(of: "<") ?? html.startIndex
        let tagEnd = html[nameRange.upperBound...].firstIndex(of: ">") ?? html.endIndex
        let tag = html[tagStart..<tagEnd]
        guard let valueRange = tag.range(of: "value=\"") else { return nil }
        let rest = tag[valueRange.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }
}
