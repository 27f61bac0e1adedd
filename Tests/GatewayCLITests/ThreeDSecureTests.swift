import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// EMV 3-D Secure, simulated, through `gateway serve` on a real socket: INITIATE_AUTHENTICATION,
/// AUTHENTICATE_PAYER, the sandbox ACS page and a payment naming `authentication.transactionId`,
/// on SQLite (one process) and on PostgreSQL (each step on the other of two replicas, so every
/// state is read from the store).
@Suite("3-D Secure", .blocksThreads)
struct ThreeDSecureTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// The gateways a test talks to: one on SQLite, two replicas on PostgreSQL. `port(n)` takes
    /// turns between them.
    struct Gateways {
        let ports: [Int]
        let stop: () -> Void
        func port(_ step: Int) -> Int { ports[step % ports.count] }

        static func start(_ store: Store) async throws -> Gateways {
            switch store {
            case .sqlite:
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("threeds-\(UUID().uuidString).sqlite")
                // The replicas' sandbox authority, so tokens ReplicaCluster mints are trusted.
                let gateway = try await RunningGateway(
                    storeURL: "sqlite://\(file.path)",
                    sandboxAuthority: ReplicaCluster.authorityDirectory
                )
                return Gateways(ports: [gateway.port]) { gateway.process.terminate() }
            case .postgres:
                let cluster = try await ReplicaCluster(replicas: 2, storeURL: try await PostgresTestServer.shared().createDatabase())
                return Gateways(ports: cluster.replicas.map(\.port)) { cluster.stop() }
            }
        }
    }

    static let redirectResponseUrl = "https://merchant.example/3ds/return"

    static func initiate(card: String, currency: String = "USD") -> Data {
        Data(
            #"{"apiOperation":"INITIATE_AUTHENTICATION","order":{"currency":"\#(currency)"},"authentication":{"acceptVersions":"3DS2","channel":"PAYER_BROWSER","purpose":"PAYMENT_TRANSACTION"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
    }

    static func authenticatePayer(amount: String = "56.56") -> Data {
        Data(
            #"{"apiOperation":"AUTHENTICATE_PAYER","order":{"amount":"\#(amount)","currency":"USD"},"authentication":{"redirectResponseUrl":"\#(redirectResponseUrl)"},"device":{"browser":"MOZILLA","browserDetails":{"javaEnabled":false,"language":"en-GB","screenHeight":900,"screenWidth":1400,"timeZone":-60,"colorDepth":24,"3DSecureChallengeWindowSize":"FULL_SCREEN","acceptHeaders":"text/html"},"ipAddress":"127.0.0.1"}}"#
                .utf8
        )
    }

    static func pay(card: String, authentication: String?, amount: String = "56.56") -> Data {
        let named = authentication.map { #","authentication":{"transactionId":"\#($0)"}"# } ?? ""
        return Data(
            #"{"apiOperation":"PAY","order":{"amount":"\#(amount)","currency":"USD"}\#(named),"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
    }

    /// A form post to the ACS page, as the payer's browser sends it.
    static func post(port: Int, _ path: String, _ fields: [(String, String)]) async throws -> (status: Int, html: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        request.httpBody = Data(
            fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&").utf8
        )
        let (data, response) = try await ReplicaCluster.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    static func value(_ json: [String: Any], _ path: String) -> Any? {
        var current: Any? = json
        for name in path.split(separator: ".") { current = (current as? [String: Any])?[String(name)] }
        return current
    }

    static func text(_ json: [String: Any], _ path: String) -> String? { value(json, path) as? String }

    @Test("frictionless: authenticated, then PAY carries the ECI and 3DS2 ids into the order", arguments: Store.allCases)
    func frictionless(store: Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let card = "5123450000000008"
        let initiated = try await ReplicaCluster.send(port: gateways.port(0), "/order/f-1/transaction/auth-1", body: Self.initiate(card: card))
        #expect(initiated.status == 201)
        let initiation = ReplicaCluster.json(initiated.body)
        #expect(Self.text(initiation, "authentication.version") == "3DS2")
        #expect(Self.text(initiation, "transaction.authenticationStatus") == "AUTHENTICATION_AVAILABLE")
        #expect(Self.text(initiation, "transaction.type") == "AUTHENTICATION")
        #expect(Self.text(initiation, "response.gatewayRecommendation") == "PROCEED")
        #expect(Self.text(initiation, "sourceOfFunds.provided.card.number") == "512345xxxxxx0008")

        let authenticated = try await ReplicaCluster.send(port: gateways.port(1), "/order/f-1/transaction/auth-1", body: Self.authenticatePayer())
        #expect(authenticated.status == 201)
        let authentication = ReplicaCluster.json(authenticated.body)
        #expect(Self.text(authentication, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(authentication, "order.status") == "AUTHENTICATED")
        #expect(Self.text(authentication, "authentication.3ds2.transactionStatus") == "Y")
        #expect(Self.text(authentication, "authentication.3ds.acsEci") == "02")
        #expect(Self.text(authentication, "authentication.3ds.authenticationToken")?.isEmpty == false)
        #expect(Self.text(authentication, "authentication.payerInteraction") == "NOT_REQUIRED")
        #expect(Self.value(authentication, "authentication.redirect") == nil)
        let dsTransactionId = try #require(Self.text(authentication, "authentication.3ds2.dsTransactionId"))

        // The payer approved 56.56: a payment for more, naming this authentication, is refused and
        // records nothing (the same transaction id then pays the authenticated amount).
        let tooMuch = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/f-1/transaction/pay-1",
            body: Self.pay(card: card, authentication: "auth-1", amount: "9999.00")
        )
        #expect(tooMuch.status == 400)
        let refusal = ReplicaCluster.json(tooMuch.body)
        #expect(Self.text(refusal, "error.field") == "authentication.transactionId")
        #expect(Self.text(refusal, "error.explanation")?.contains("authenticated for USD 56.56, not for USD 9999.00") == true)

        let paid = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/f-1/transaction/pay-1",
            body: Self.pay(card: card, authentication: "auth-1")
        )
        #expect(paid.status == 201)
        let payment = ReplicaCluster.json(paid.body)
        #expect(Self.text(payment, "result") == "SUCCESS")
        #expect(Self.text(payment, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(payment, "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(payment, "authentication.transactionId") == "auth-1")
        #expect(Self.text(payment, "authentication.3ds.acsEci") == "02")
        #expect(Self.text(payment, "authentication.3ds2.dsTransactionId") == dsTransactionId)
        #expect(Self.value(payment, "authentication.3ds.authenticationToken") == nil, "the token stays with the authentication")

        // A follow-on keeps the order's authentication, as it keeps its card.
        let refunded = try await ReplicaCluster.send(
            port: gateways.port(1),
            "/order/f-1/transaction/refund-1",
            body: Data(#"{"apiOperation":"REFUND","transaction":{"amount":"10.00","currency":"USD"}}"#.utf8)
        )
        #expect(refunded.status == 201)
        #expect(Self.text(ReplicaCluster.json(refunded.body), "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")

        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/f-1").body)
        #expect(Self.text(order, "authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        let transactions = try #require(order["transaction"] as? [[String: Any]])
        #expect(transactions.compactMap { Self.text($0, "transaction.type") } == ["AUTHENTICATION", "PAYMENT", "REFUND"])
        #expect(
            transactions.compactMap { Self.text($0, "authentication.3ds2.dsTransactionId") } == [dsTransactionId, dsTransactionId, dsTransactionId]
        )

        let retrieved = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/f-1/transaction/auth-1").body)
        #expect(Self.text(retrieved, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
    }

    @Test("challenge: the ACS page answers once, sends the payer back with the result, and decides the PAY", arguments: Store.allCases)
    func challenge(store: Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let card = "5123456789012346"
        for (index, (outcome, paid)) in [("Y", true), ("N", false)].enumerated() {
            let order = "/order/c-\(index)"
            #expect(try await ReplicaCluster.send(port: gateways.port(0), "\(order)/transaction/a", body: Self.initiate(card: card)).status == 201)
            let pending = ReplicaCluster.json(
                try await ReplicaCluster.send(port: gateways.port(1), "\(order)/transaction/a", body: Self.authenticatePayer()).body
            )
            #expect(Self.text(pending, "transaction.authenticationStatus") == "AUTHENTICATION_PENDING")
            #expect(Self.text(pending, "result") == "PENDING")
            #expect(Self.text(pending, "authentication.3ds2.transactionStatus") == "C")
            #expect(Self.text(pending, "authentication.payerInteraction") == "REQUIRED")
            let html = try #require(Self.text(pending, "authentication.redirect.html"))
            let challengeId = try #require(Self.text(pending, "authentication.redirect.customizedHtml.3ds2.cReq"))
            #expect(html.contains("/acs/challenge\""))
            #expect(html.contains(challengeId))

            // Not yet answered: the payment is refused.
            let early = try await ReplicaCluster.send(
                port: gateways.port(0),
                "\(order)/transaction/p0",
                body: Self.pay(card: card, authentication: "a")
            )
            #expect(early.status == 400)
            #expect(Self.text(ReplicaCluster.json(early.body), "error.field") == "authentication.transactionId")

            let page = try await Self.post(port: gateways.port(0), "/acs/challenge", [("creq", challengeId)])
            #expect(page.status == 200)
            #expect(page.html.contains("action=\"/acs/challenge/result\""))
            #expect(page.html.contains("512345xxxxxx2346"))
            #expect(!page.html.contains("5123456789012346"))

            let back = try await Self.post(port: gateways.port(1), "/acs/challenge/result", [("creq", challengeId), ("outcome", outcome)])
            #expect(back.status == 200)
            #expect(back.html.contains("action=\"\(Self.redirectResponseUrl)\""))
            #expect(back.html.contains("name=\"order.id\" value=\"c-\(index)\""))
            #expect(back.html.contains("name=\"transaction.id\" value=\"a\""))
            #expect(back.html.contains("name=\"result\" value=\"\(paid ? "SUCCESS" : "FAILURE")\""))
            #expect(back.html.contains("value=\"\(paid ? "PROCEED" : "DO_NOT_PROCEED")\""))

            let again = try await Self.post(port: gateways.port(0), "/acs/challenge/result", [("creq", challengeId), ("outcome", "Y")])
            #expect(again.status == 404, "a challenge is answered once")

            let payment = try await ReplicaCluster.send(
                port: gateways.port(0),
                "\(order)/transaction/p1",
                body: Self.pay(card: card, authentication: "a")
            )
            let body = ReplicaCluster.json(payment.body)
            if paid {
                #expect(payment.status == 201)
                #expect(Self.text(body, "authentication.3ds2.transactionStatus") == "Y")
                #expect(Self.text(body, "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
            } else {
                #expect(payment.status == 400)
                #expect(Self.text(body, "error.field") == "authentication.transactionId")
                #expect(Self.text(body, "error.explanation")?.contains("AUTHENTICATION_FAILED") == true)
                let stored = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "\(order)").body)
                #expect(Self.text(stored, "status") == "AUTHENTICATION_UNSUCCESSFUL")
            }
        }
    }

    @Test("the test cards: failure, not enrolled and error; refusals name the field")
    func testCardsAndRefusals() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let port = gateways.port(0)

        // Frictionless failure: DO_NOT_PROCEED, and a payment naming it is refused.
        #expect(try await ReplicaCluster.send(port: port, "/order/t-1/transaction/a", body: Self.initiate(card: "5111111111111118")).status == 201)
        let failed = ReplicaCluster.json(try await ReplicaCluster.send(port: port, "/order/t-1/transaction/a", body: Self.authenticatePayer()).body)
        #expect(Self.text(failed, "transaction.authenticationStatus") == "AUTHENTICATION_FAILED")
        #expect(Self.text(failed, "response.gatewayRecommendation") == "DO_NOT_PROCEED")
        #expect(Self.text(failed, "authentication.3ds2.transactionStatus") == "N")
        #expect(
            try await ReplicaCluster.send(port: port, "/order/t-1/transaction/p", body: Self.pay(card: "5111111111111118", authentication: "a"))
                .status == 400
        )

        // Not enrolled: version NONE; the payment proceeds, marked as such.
        let notEnrolled = ReplicaCluster.json(
            try await ReplicaCluster.send(port: port, "/order/t-2/transaction/a", body: Self.initiate(card: "5555555555554444")).body
        )
        #expect(Self.text(notEnrolled, "authentication.version") == "NONE")
        #expect(Self.text(notEnrolled, "transaction.authenticationStatus") == "AUTHENTICATION_NOT_SUPPORTED")
        let proceeded = try await ReplicaCluster.send(
            port: port,
            "/order/t-2/transaction/p",
            body: Self.pay(card: "5555555555554444", authentication: "a")
        )
        #expect(proceeded.status == 201)
        #expect(Self.text(ReplicaCluster.json(proceeded.body), "transaction.authenticationStatus") == "AUTHENTICATION_NOT_SUPPORTED")

        // Error: the directory server could not authenticate.
        #expect(try await ReplicaCluster.send(port: port, "/order/t-3/transaction/a", body: Self.initiate(card: "5105105105105100")).status == 201)
        let unavailable = ReplicaCluster.json(
            try await ReplicaCluster.send(port: port, "/order/t-3/transaction/a", body: Self.authenticatePayer()).body
        )
        #expect(Self.text(unavailable, "transaction.authenticationStatus") == "AUTHENTICATION_UNAVAILABLE")
        #expect(Self.text(unavailable, "result") == "FAILURE")

        // Another order's authentication, and an unknown one: refused, nothing recorded.
        #expect(try await ReplicaCluster.send(port: port, "/order/t-4/transaction/a", body: Self.initiate(card: "5123450000000008")).status == 201)
        #expect(try await ReplicaCluster.send(port: port, "/order/t-4/transaction/a", body: Self.authenticatePayer()).status == 201)
        let elsewhere = try await ReplicaCluster.send(
            port: port,
            "/order/t-5/transaction/p",
            body: Self.pay(card: "5123450000000008", authentication: "a")
        )
        #expect(elsewhere.status == 400)
        #expect(Self.text(ReplicaCluster.json(elsewhere.body), "error.field") == "authentication.transactionId")
        #expect(try await ReplicaCluster.send(port: port, "/order/t-5").status == 404)

        // AUTHENTICATE_PAYER before INITIATE_AUTHENTICATION, twice, and without its URL.
        let uninitiated = try await ReplicaCluster.send(port: port, "/order/t-6/transaction/a", body: Self.authenticatePayer())
        #expect(uninitiated.status == 400)
        #expect(Self.text(ReplicaCluster.json(uninitiated.body), "error.field") == "transaction.id")
        let twice = try await ReplicaCluster.send(port: port, "/order/t-4/transaction/a", body: Self.authenticatePayer())
        #expect(twice.status == 400)
        #expect(try await ReplicaCluster.send(port: port, "/order/t-7/transaction/a", body: Self.initiate(card: "5123450000000008")).status == 201)
        let noURL = try await ReplicaCluster.send(
            port: port,
            "/order/t-7/transaction/a",
            body: Data(#"{"apiOperation":"AUTHENTICATE_PAYER","order":{"amount":"1.00","currency":"USD"}}"#.utf8)
        )
        #expect(noURL.status == 400)
        #expect(Self.text(ReplicaCluster.json(noURL.body), "error.field") == "authentication.redirectResponseUrl")
        let badURL = try await ReplicaCluster.send(
            port: port,
            "/order/t-7/transaction/a",
            body: Data(
                #"{"apiOperation":"AUTHENTICATE_PAYER","order":{"amount":"1.00","currency":"USD"},"authentication":{"redirectResponseUrl":"javascript:alert(1)"}}"#
                    .utf8
            )
        )
        #expect(badURL.status == 400)

        // AUTHENTICATE_PAYER in another currency than the initiation's.
        #expect(
            try await ReplicaCluster.send(port: port, "/order/t-9/transaction/a", body: Self.initiate(card: "5123450000000008", currency: "EUR"))
                .status == 201
        )
        let otherCurrency = try await ReplicaCluster.send(port: port, "/order/t-9/transaction/a", body: Self.authenticatePayer())
        #expect(otherCurrency.status == 400)
        #expect(Self.text(ReplicaCluster.json(otherCurrency.body), "error.field") == "order.currency")

        // A payment cannot take its authentication's transaction id.
        let sameId = try await ReplicaCluster.send(
            port: port,
            "/order/t-4/transaction/a",
            body: Self.pay(card: "5123450000000008", authentication: "a")
        )
        #expect(sameId.status == 400)
        #expect(Self.text(ReplicaCluster.json(sameId.body), "error.field") == "transaction.id")

        // Apple Pay is authenticated by its cryptogram: a named authentication is not carried.
        var token = try #require(try JSONSerialization.jsonObject(with: try ReplicaCluster.tokenBody()) as? [String: Any])
        token["authentication"] = ["transactionId": "a"]
        let applePay = try await ReplicaCluster.send(
            port: port,
            "/order/t-4/transaction/apple",
            body: try JSONSerialization.data(withJSONObject: token)
        )
        #expect(applePay.status == 201)
        let applePayment = ReplicaCluster.json(applePay.body)
        #expect(Self.text(applePayment, "transaction.authenticationStatus") == "AUTHENTICATION_NOT_IN_EFFECT")
        #expect(Self.value(applePayment, "authentication") == nil)

        // A payment's transaction id is not an authentication's.
        let reused = try await ReplicaCluster.send(port: port, "/order/t-2/transaction/p", body: Self.initiate(card: "5123450000000008"))
        #expect(reused.status == 400)

        // Fields INITIATE_AUTHENTICATION does not take are unexpected.
        let unexpected = try await ReplicaCluster.send(
            port: port,
            "/order/t-8/transaction/a",
            body: Data(
                #"{"apiOperation":"INITIATE_AUTHENTICATION","order":{"currency":"USD"},"session":{"id":"SESSION0002345678901234567890123"},"sourceOfFunds":{"provided":{"card":{"number":"5123450000000008"}}}}"#
                    .utf8
            )
        )
        #expect(unexpected.status == 400)

        // The ACS page: an unknown challenge and a post that is no form.
        #expect(try await Self.post(port: port, "/acs/challenge", [("creq", "0123456789abcdef0123456789abcdef")]).status == 404)
        #expect(try await Self.post(port: port, "/acs/challenge", []).status == 400)
        #expect(try await Self.post(port: port, "/acs/challenge/result", [("creq", "x"), ("outcome", "MAYBE")]).status == 400)
    }

    /// POST (Create Session) or PUT under the merchant, with the merchant's password.
    static func session(port: Int, _ method: String, _ path: String, body: Data?) async throws -> (status: Int, body: [String: Any]) {
        var request = URLRequest(url: RunningGateway.url(port: port, "/merchant/TESTMERCHANT\(path)"))
        request.httpMethod = method
        request.setValue(ReplicaCluster.authorization, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (data, response) = try await ReplicaCluster.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, ReplicaCluster.json(data))
    }

    @Test("a session holds the card and authentication.*: both operations read it, and the PAY uses it up", arguments: Store.allCases)
    func session(store: Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let created = try await Self.session(port: gateways.port(0), "POST", "/session", body: nil)
        #expect(created.status == 201)
        let sessionId = try #require(Self.text(created.body, "session.id"))
        let update = Data(
            #"{"order":{"amount":"56.56","currency":"USD"},"authentication":{"acceptVersions":"3DS2","channel":"PAYER_BROWSER","purpose":"PAYMENT_TRANSACTION","redirectResponseUrl":"\#(Self.redirectResponseUrl)"},"device":{"browser":"MOZILLA"},"sourceOfFunds":{"provided":{"card":{"number":"5123456789012346","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
        let updated = try await Self.session(port: gateways.port(1), "PUT", "/session/\(sessionId)", body: update)
        #expect(updated.status == 200)
        #expect(Self.text(updated.body, "authentication.redirectResponseUrl") == Self.redirectResponseUrl)

        let withSession = Data(#"{"apiOperation":"INITIATE_AUTHENTICATION","session":{"id":"\#(sessionId)"}}"#.utf8)
        let initiated = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(0), "/order/s-1/transaction/a", body: withSession).body)
        #expect(Self.text(initiated, "transaction.authenticationStatus") == "AUTHENTICATION_AVAILABLE")
        #expect(Self.text(initiated, "authentication.acceptVersions") == "3DS2")
        #expect(Self.text(initiated, "sourceOfFunds.provided.card.number") == "512345xxxxxx2346")

        let authenticate = Data(#"{"apiOperation":"AUTHENTICATE_PAYER","session":{"id":"\#(sessionId)"}}"#.utf8)
        let pending = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/s-1/transaction/a", body: authenticate).body)
        #expect(Self.text(pending, "transaction.authenticationStatus") == "AUTHENTICATION_PENDING")
        #expect(Self.text(pending, "authentication.redirectResponseUrl") == Self.redirectResponseUrl)
        let challengeId = try #require(Self.text(pending, "authentication.redirect.customizedHtml.3ds2.cReq"))
        #expect(try await Self.post(port: gateways.port(0), "/acs/challenge/result", [("creq", challengeId), ("code", "1234")]).status == 200)

        let pay = Data(#"{"apiOperation":"PAY","session":{"id":"\#(sessionId)"},"authentication":{"transactionId":"a"}}"#.utf8)
        let paid = try await ReplicaCluster.send(port: gateways.port(1), "/order/s-1/transaction/p", body: pay)
        #expect(paid.status == 201)
        let payment = ReplicaCluster.json(paid.body)
        #expect(Self.text(payment, "result") == "SUCCESS")
        #expect(Self.text(payment, "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(payment, "authentication.3ds2.transactionStatus") == "Y")
        let used = try await ReplicaCluster.send(port: gateways.port(0), "/order/s-2/transaction/a", body: withSession)
        #expect(used.status == 400, "the PAY used the session up")
        #expect(Self.text(ReplicaCluster.json(used.body), "error.explanation") == "Session not found or expired")
    }
}
