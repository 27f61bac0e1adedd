import Foundation
import Hummingbird
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore

/// Order links for ids with punctuation, through a real socket: each order is made through the
/// API, its link read off the search page and followed, and it must open that order and no
/// other (the console encodes a path segment once and its routes decode it once). Also: a form
/// over the console's limit is answered 413 on the console's page, not 503.
@Suite("Merchant Administration: order links and form limits")
struct MerchantConsoleOrderLinkTests {
    let console = MerchantConsoleTests()

    /// Sent raw in the API's path (the API takes its path as sent); `a%2Fb` and `a` sit side by
    /// side so a link decoded twice, or not at all, opens the wrong one or none.
    static let orderIds = ["INV:2024-001", "order(1)", "A+B", "a%2Fb", "a", "x~y.z_w-1", "!$&'*,;=@"]

    /// A logged-in console session over its own connection, with the gateway's port.
    struct Operator {
        var client: LoopbackClient
        var cookie: String

        func get(_ target: String) async throws -> LoopbackClient.Answer {
            try await client.send("GET", target, headers: [("Cookie", cookie)])
        }
    }

    func withLiveConsole(_ body: @escaping @Sendable (Operator) async throws -> Void) async throws {
        let services = try await console.console()
        try await console.application(services).test(.live) { client in
            try await console.addOperators(services)
            let loopback = LoopbackClient(port: try #require(client.port), source: "127.0.0.1")
            let login = try await loopback.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            #expect(login.status == 303)
            let session = try #require(login.setCookies.first { $0.hasPrefix("ma_session=") }?.split(separator: ";").first)
            try await body(Operator(client: loopback, cookie: String(session)))
        }
    }

    /// The order's id as the API stored it, after a PAY sent to its raw path.
    static func pay(_ client: LoopbackClient, orderId: String) async throws -> String {
        let answer = try await client.send(
            "PUT",
            TestGateway.path(order: orderId, transaction: "1"),
            headers: [("Authorization", TestGateway.authorization()), ("Content-Type", "application/json")],
            body: Array(TestGateway.cardBody(amount: "10.00"))
        )
        #expect(answer.status == 201, "\(orderId): \(answer.status) \(answer.body)")
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        return try #require((json?["order"] as? [String: Any])?["id"] as? String)
    }

    /// Each link on the search page, by the order id it shows (HTML-unescaped).
    static func links(_ page: String) -> [String: String] {
        var found: [String: String] = [:]
        for piece in page.components(separatedBy: "<a href=\"/ma/orders/").dropFirst() {
            guard let quote = piece.firstIndex(of: "\""), let close = piece.range(of: "</a>") else { continue }
            let text = piece[piece.index(after: piece.index(after: quote))..<close.lowerBound]
            found[unescaped(String(text))] = String(piece[..<quote])
        }
        return found
    }

    static func unescaped(_ html: String) -> String {
        var text = html
        for (entity, character) in [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// The heading of a console page.
    static func heading(_ page: String) -> String? {
        guard let start = page.range(of: "<h1>"), let end = page.range(of: "</h1>", range: start.upperBound..<page.endIndex) else { return nil }
        return unescaped(String(page[start.upperBound..<end.lowerBound]))
    }

    @Test("each order's link on the search page opens that order, punctuation and all")
    func linksOpenTheirOrder() async throws {
        try await withLiveConsole { session in
            var stored: [String] = []
            for orderId in Self.orderIds { stored.append(try await Self.pay(session.client, orderId: orderId)) }
            let search = try await session.get("/ma/orders")
            #expect(search.status == 200)
            let links = Self.links(search.body)
            for orderId in stored {
                let link = try #require(links[orderId], "no link for \(orderId) in \(links)")
                let page = try await session.get("/ma/orders/\(link)")
                #expect(page.status == 200, "\(orderId) at /ma/orders/\(link): \(page.status)")
                #expect(
                    Self.heading(page.body) == "Order \(orderId)",
                    "\(orderId) at /ma/orders/\(link) opened \(Self.heading(page.body) ?? "nothing")"
                )
            }
        }
    }

    @Test("a path segment is decoded once: %25 is a percent sign, not the start of another escape")
    func decodedOnce() async throws {
        try await withLiveConsole { session in
            let literal = try await Self.pay(session.client, orderId: "a%2Fb")
            #expect(literal == "a%2Fb")
            // The order a%2Fb, spelled as a link must spell it.
            let once = try await session.get("/ma/orders/a%252Fb")
            #expect(once.status == 200)
            #expect(Self.heading(once.body) == "Order a%2Fb")
            // Decoded once, `a%2Fb` in the path names the order `a/b`, which is not this one.
            let slash = try await session.get("/ma/orders/a%2Fb")
            #expect(slash.status == 404)
            #expect(slash.body.contains("There is no order a/b for this merchant."), "\(Self.heading(slash.body) ?? slash.body)")
            // Spaces and non-ASCII letters decode as UTF-8; a broken escape names no order.
            let unicode = try await session.get("/ma/orders/caf%C3%A9%20(1)")
            #expect(unicode.status == 404)
            #expect(unicode.body.contains("There is no order café (1) for this merchant."))
            #expect(try await session.get("/ma/orders/a%ZZb").status == 400)
        }
    }

    @Test("a form on an order page with punctuation in its id acts on that order")
    func actionOnPunctuatedOrder() async throws {
        try await withLiveConsole { session in
            let orderId = try await Self.pay(session.client, orderId: "A+B")
            let links = Self.links(try await session.get("/ma/orders").body)
            let link = try #require(links[orderId])
            let page = try await session.get("/ma/orders/\(link)")
            let refund = try await session.client.postForm(
                "/ma/orders/\(link)/refund",
                [("csrf", page.hidden("csrf") ?? ""), ("transactionId", "ma-refund-1"), ("amount", "1.00")],
                cookie: session.cookie
            )
            #expect([200, 303].contains(refund.status), "\(refund.status) \(Self.heading(refund.body) ?? "")")
            let after = try await session.get("/ma/orders/\(link)")
            #expect(after.body.contains("1.00 USD"), "the refund is on A+B")
        }
    }

    @Test("a console form over the limit is answered 413 on the console's page; the login form too")
    func oversizedForms() async throws {
        try await withLiveConsole { session in
            let big = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
            for target in ["/ma/login", "/ma/logout"] {
                let answer = try await session.client.send(
                    "POST",
                    target,
                    headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", session.cookie)],
                    body: Array("csrf=x&note=".utf8) + big
                )
                #expect(answer.status == 413, "\(target): \(answer.status)")
                #expect(answer.body.contains("The form is larger than the console accepts"), "\(target): \(answer.body.prefix(200))")
            }
            // Still logged in: nothing was done.
            #expect(try await session.get("/ma/orders").status == 200)
        }
    }
}
