import BlockingWork
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 3-D Secure 1 through `gateway serve` on a real socket, as the WooCommerce module and the Java
/// sample drive it: CHECK_3DS_ENROLLMENT on `PUT .../3DSecureId/{id}`, the sandbox ACS page
/// posting PaRes to the TermUrl, PROCESS_ACS_RESULT on `POST`, and a PAY naming `3DSecureId`.
@Suite("3-D Secure 1", .blocksThreads)
struct ThreeDSecure1Tests {
    static let termURL = "https://merchant.example/process3ds"

    /// A request under /api/rest/version/{version}/merchant/TESTMERCHANT; status and JSON body.
    static func send(
        port: Int,
        _ method: String,
        _ path: String,
        version: Int = 57,
        body: String? = nil
    ) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/rest/version/\(version)/merchant/TESTMERCHANT\(path)")!)
        request.httpMethod = method
        request.setValue(ReplicaCluster.authorization, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await ReplicaCluster.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, ReplicaCluster.json(data))
    }

    static func check(card: String, mode: String = "CUSTOMIZED", amount: String = "56.56") -> String {
        #"{"apiOperation":"CHECK_3DS_ENROLLMENT","3DSecure":{"authenticationRedirect":{"responseUrl":"\#(termURL)","pageGenerationMode":"\#(mode)"}},"order":{"amount":\#(amount),"currency":"USD"},"sourceOfFunds":{"provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}}"#
    }

    static func pay(card: String, threeDSecureId: String, amount: String = "56.56") -> String {
        #"{"apiOperation":"PAY","3DSecureId":"\#(threeDSecureId)","order":{"amount":"\#(amount)","currency":"USD"},"session":{},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}}"#
    }

    static func text(_ json: [String: Any], _ path: String) -> String? { ThreeDSecureTests.text(json, path) }

    /// The hidden input `name`'s value in a form.
    static func input(_ html: String, _ name: String) -> String? {
        guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]).replacingOccurrences(of: "&#39;", with: "'") }
    }

    static func startGateway() async throws -> RunningGateway {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("threeds1-\(UUID().uuidString).sqlite")
        return try await RunningGateway(storeURL: "sqlite://\(file.path)", sandboxAuthority: ReplicaCluster.authorityDirectory)
    }

    @Test("enrolled card: ACS page, PaRes to the TermUrl, PROCESS_ACS_RESULT, PAY carries it once")
    func enrolled() async throws {
        let gateway = try await Self.startGateway()
        defer { gateway.process.terminate() }
        let port = gateway.port
        let card = "5123456789012346"

        let checked = try await Self.send(port: port, "PUT", "/3DSecureId/3ds-a", body: Self.check(card: card, mode: "SIMPLE"))
        #expect(checked.status == 201)
        #expect(Self.text(checked.json, "3DSecure.summaryStatus") == "CARD_ENROLLED")
        #expect(Self.text(checked.json, "3DSecure.veResEnrolled") == "Y")
        #expect(Self.text(checked.json, "response.3DSecure.gatewayCode") == "CARD_ENROLLED")
        #expect(Self.text(checked.json, "response.gatewayRecommendation") == "PROCEED")
        #expect(Self.text(checked.json, "3DSecureId") == "3ds-a")
        // SIMPLE: the whole form, posting PaReq, TermUrl and MD to the sandbox ACS; nothing customized.
        let html = try #require(Self.text(checked.json, "3DSecure.authenticationRedirect.simple.htmlBodyContent"))
        #expect(ThreeDSecureTests.value(checked.json, "3DSecure.authenticationRedirect.customized") == nil)
        #expect(html.contains("action=\"http://127.0.0.1:\(port)/acs/3ds1\""))
        let paReq = try #require(Self.input(html, "PaReq"))
        #expect(Self.input(html, "TermUrl") == Self.termURL)
        #expect(Self.input(html, "MD") == "3ds-a")

        // Before the payer answers, no PaRes exists and the payment is refused.
        let early = try await Self.send(port: port, "PUT", "/order/o-a/transaction/p-1", body: Self.pay(card: card, threeDSecureId: "3ds-a"))
        #expect(early.status == 400)
        #expect(Self.text(early.json, "error.field") == "3DSecureId")

        // The payer's browser posts the form to the ACS, then answers it.
        let page = try await ThreeDSecureTests.post(port: port, "/acs/3ds1", [("PaReq", paReq), ("TermUrl", Self.termURL), ("MD", "md-1")])
        #expect(page.status == 200)
        #expect(page.html.contains("512345xxxxxx2346"))
        let answered = try await ThreeDSecureTests.post(
            port: port,
            "/acs/3ds1/result",
            [("PaReq", paReq), ("TermUrl", Self.termURL), ("MD", "md-1"), ("code", "1234")]
        )
        #expect(answered.status == 200)
        #expect(answered.html.contains("action=\"\(Self.termURL)\""))
        #expect(Self.input(answered.html, "MD") == "md-1")
        let paRes = try #require(Self.input(answered.html, "PaRes"))

        let wrong = try await Self.send(
            port: port,
            "POST",
            "/3DSecureId/3ds-a",
            body: #"{"apiOperation":"PROCESS_ACS_RESULT","3DSecure":{"paRes":"bm90IHRoZSBvbmU="}}"#
        )
        #expect(wrong.status == 400)
        #expect(Self.text(wrong.json, "error.field") == "3DSecure.paRes")

        let processed = try await Self.send(
            port: port,
            "POST",
            "/3DSecureId/3ds-a",
            body: #"{"apiOperation":"PROCESS_ACS_RESULT","3DSecure":{"paRes":"\#(paRes)"}}"#
        )
        #expect(processed.status == 201)
        #expect(Self.text(processed.json, "3DSecure.summaryStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(processed.json, "response.3DSecure.gatewayCode") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(processed.json, "3DSecure.paResStatus") == "Y")
        #expect(Self.text(processed.json, "3DSecure.acsEci") == "02")
        #expect(Self.text(processed.json, "3DSecure.authenticationToken")?.isEmpty == false)
        let xid = try #require(Self.text(processed.json, "3DSecure.xid"))

        let retrieved = try await Self.send(port: port, "GET", "/3DSecureId/3ds-a")
        #expect(retrieved.status == 200)
        #expect(Self.text(retrieved.json, "3DSecure.summaryStatus") == "AUTHENTICATION_SUCCESSFUL")

        let tooMuch = try await Self.send(
            port: port,
            "PUT",
            "/order/o-a/transaction/p-1",
            body: Self.pay(card: card, threeDSecureId: "3ds-a", amount: "99.00")
        )
        #expect(tooMuch.status == 400)
        #expect(Self.text(tooMuch.json, "error.explanation")?.contains("authenticated for USD 56.56") == true)

        let paid = try await Self.send(port: port, "PUT", "/order/o-a/transaction/p-1", body: Self.pay(card: card, threeDSecureId: "3ds-a"))
        #expect(paid.status == 201)
        #expect(Self.text(paid.json, "result") == "SUCCESS")
        #expect(Self.text(paid.json, "3DSecureId") == "3ds-a")
        #expect(Self.text(paid.json, "3DSecure.acsEci") == "02")
        #expect(Self.text(paid.json, "3DSecure.xid") == xid)
        #expect(Self.text(paid.json, "3DSecure.paResStatus") == "Y")
        #expect(Self.text(paid.json, "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")

        let order = try await Self.send(port: port, "GET", "/order/o-a")
        #expect(order.status == 200)
        #expect(Self.text(order.json, "authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        let transactions = try #require(order.json["transaction"] as? [[String: Any]])
        #expect(transactions.contains { Self.text($0, "3DSecureId") == "3ds-a" && Self.text($0, "3DSecure.acsEci") == "02" })

        // Used up: another order may not pay with it.
        let reused = try await Self.send(port: port, "PUT", "/order/o-b/transaction/p-1", body: Self.pay(card: card, threeDSecureId: "3ds-a"))
        #expect(reused.status == 400)
        #expect(Self.text(reused.json, "error.explanation")?.contains("used by another order") == true)
    }

    @Test("not enrolled, failure card and unknown id; no 3-D Secure 1 after version 78")
    func outcomes() async throws {
        let gateway = try await Self.startGateway()
        defer { gateway.process.terminate() }
        let port = gateway.port

        let notEnrolled = try await Self.send(port: port, "PUT", "/3DSecureId/3ds-n", body: Self.check(card: "5555555555554444"))
        #expect(notEnrolled.status == 201)
        #expect(Self.text(notEnrolled.json, "3DSecure.summaryStatus") == "CARD_NOT_ENROLLED")
        #expect(Self.text(notEnrolled.json, "3DSecure.veResEnrolled") == "N")
        #expect(ThreeDSecureTests.value(notEnrolled.json, "3DSecure.authenticationRedirect") == nil)
        let paidUnenrolled = try await Self.send(
            port: port,
            "PUT",
            "/order/o-n/transaction/p-1",
            body: Self.pay(card: "5555555555554444", threeDSecureId: "3ds-n")
        )
        #expect(paidUnenrolled.status == 201)
        #expect(Self.text(paidUnenrolled.json, "3DSecure.veResEnrolled") == "N")
        #expect(Self.text(paidUnenrolled.json, "3DSecure.acsEci") == "01")

        // The failure card's issuer refuses whatever the payer enters.
        let failing = try await Self.send(port: port, "PUT", "/3DSecureId/3ds-f", body: Self.check(card: "5111111111111118"))
        // CUSTOMIZED: the ACS address and the PaReq only, for the merchant's own form.
        #expect(Self.text(failing.json, "3DSecure.authenticationRedirect.customized.acsUrl") == "http://127.0.0.1:\(port)/acs/3ds1")
        #expect(ThreeDSecureTests.value(failing.json, "3DSecure.authenticationRedirect.simple") == nil)
        let paReq = try #require(Self.text(failing.json, "3DSecure.authenticationRedirect.customized.paReq"))
        let answered = try await ThreeDSecureTests.post(
            port: port,
            "/acs/3ds1/result",
            [("PaReq", paReq), ("TermUrl", Self.termURL), ("code", "1234")]
        )
        let paRes = try #require(Self.input(answered.html, "PaRes"))
        let processed = try await Self.send(
            port: port,
            "POST",
            "/3DSecureId/3ds-f",
            body: #"{"apiOperation":"PROCESS_ACS_RESULT","3DSecure":{"paRes":"\#(paRes)"}}"#
        )
        #expect(Self.text(processed.json, "3DSecure.summaryStatus") == "AUTHENTICATION_FAILED")
        #expect(Self.text(processed.json, "response.gatewayRecommendation") == "DO_NOT_PROCEED")
        let refused = try await Self.send(
            port: port,
            "PUT",
            "/order/o-f/transaction/p-1",
            body: Self.pay(card: "5111111111111118", threeDSecureId: "3ds-f")
        )
        #expect(refused.status == 400)
        #expect(Self.text(refused.json, "error.explanation")?.contains("AUTHENTICATION_FAILED") == true)
        // A refused ACS page answer is refused once: the PaReq is spent.
        let again = try await ThreeDSecureTests.post(port: port, "/acs/3ds1", [("PaReq", paReq)])
        #expect(again.status == 404)

        let unknown = try await Self.send(
            port: port,
            "PUT",
            "/order/o-u/transaction/p-1",
            body: Self.pay(card: "5123450000000008", threeDSecureId: "never-checked")
        )
        #expect(unknown.status == 400)
        #expect(Self.text(unknown.json, "error.field") == "3DSecureId")
        let unknownOrder = try await Self.send(port: port, "GET", "/order/o-u")
        #expect(unknownOrder.status == 404)

        let retired = try await Self.send(port: port, "PUT", "/3DSecureId/3ds-r", version: 79, body: Self.check(card: "5123450000000008"))
        #expect(retired.status == 400)
        #expect(Self.text(retired.json, "error.field") == "apiOperation")
        #expect(Self.text(retired.json, "error.explanation")?.contains("end at API version 78") == true)
    }
}
