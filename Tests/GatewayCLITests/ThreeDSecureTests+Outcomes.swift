import Foundation
import Testing

/// What the merchant's `acceptVersions` does to an authentication, and what an authentication
/// does to the payment after it: an AUTHORIZE carries it into the order; the error card's stops
/// a PAY.
extension ThreeDSecureTests {
    static func initiate(card: String, acceptVersions: String) -> Data {
        Data(
            #"{"apiOperation":"INITIATE_AUTHENTICATION","order":{"currency":"USD"},"authentication":{"acceptVersions":"\#(acceptVersions)","channel":"PAYER_BROWSER","purpose":"PAYMENT_TRANSACTION"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
    }

    static func authorize(card: String, authentication: String) -> Data {
        Data(
            #"{"apiOperation":"AUTHORIZE","order":{"amount":"56.56","currency":"USD"},"authentication":{"transactionId":"\#(authentication)"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"\#(card)","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
    }

    @Test("acceptVersions 3DS1 only: version NONE, not supported, AUTHENTICATE_PAYER refused; accepting 3DS2 again starts over")
    func acceptVersions() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let port = gateways.port(0)
        let card = "5123450000000008"
        let initiated = try await ReplicaCluster.send(port: port, "/order/v-1/transaction/a", body: Self.initiate(card: card, acceptVersions: "3DS1"))
        #expect(initiated.status == 201)
        let initiation = ReplicaCluster.json(initiated.body)
        #expect(Self.text(initiation, "authentication.version") == "NONE")
        #expect(Self.text(initiation, "authentication.acceptVersions") == "3DS1")
        #expect(Self.text(initiation, "transaction.authenticationStatus") == "AUTHENTICATION_NOT_SUPPORTED")
        #expect(Self.value(initiation, "authentication.3ds2") == nil)

        let refused = try await ReplicaCluster.send(port: port, "/order/v-1/transaction/a", body: Self.authenticatePayer())
        #expect(refused.status == 400)
        let error = ReplicaCluster.json(refused.body)
        #expect(Self.text(error, "error.field") == "authentication.acceptVersions")
        #expect(Self.text(error, "error.explanation")?.contains("3DS2") == true)
        // Refused, not recorded: Retrieve still shows the initiation.
        let retrieved = ReplicaCluster.json(try await ReplicaCluster.send(port: port, "/order/v-1/transaction/a").body)
        #expect(Self.text(retrieved, "transaction.authenticationStatus") == "AUTHENTICATION_NOT_SUPPORTED")
        #expect(Self.text(retrieved, "authentication.version") == "NONE")

        let again = ReplicaCluster.json(
            try await ReplicaCluster.send(port: port, "/order/v-1/transaction/a", body: Self.initiate(card: card, acceptVersions: "3DS1,3DS2")).body
        )
        #expect(Self.text(again, "authentication.version") == "3DS2")
        #expect(Self.text(again, "transaction.authenticationStatus") == "AUTHENTICATION_AVAILABLE")
        let authenticated = ReplicaCluster.json(
            try await ReplicaCluster.send(port: port, "/order/v-1/transaction/a", body: Self.authenticatePayer()).body
        )
        #expect(Self.text(authenticated, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
    }

    @Test("AUTHORIZE naming the authentication carries it into the order, its Retrieve and its capture", arguments: Store.allCases)
    func authorize(store: Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let card = "4440000009900010"
        #expect(try await ReplicaCluster.send(port: gateways.port(0), "/order/az-1/transaction/a", body: Self.initiate(card: card)).status == 201)
        let authenticated = ReplicaCluster.json(
            try await ReplicaCluster.send(port: gateways.port(1), "/order/az-1/transaction/a", body: Self.authenticatePayer()).body
        )
        #expect(Self.text(authenticated, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        let dsTransactionId = try #require(Self.text(authenticated, "authentication.3ds2.dsTransactionId"))

        let authorized = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/az-1/transaction/auth",
            body: Self.authorize(card: card, authentication: "a")
        )
        #expect(authorized.status == 201)
        let authorization = ReplicaCluster.json(authorized.body)
        #expect(Self.text(authorization, "result") == "SUCCESS", "\(authorization)")
        #expect(Self.text(authorization, "transaction.type") == "AUTHORIZATION")
        #expect(Self.text(authorization, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(authorization, "authentication.transactionId") == "a")
        #expect(Self.text(authorization, "authentication.3ds.acsEci") == "05", "a Visa's ECI")
        #expect(Self.text(authorization, "authentication.3ds2.dsTransactionId") == dsTransactionId)
        #expect(Self.value(authorization, "authentication.3ds.authenticationToken") == nil)

        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/az-1").body)
        #expect(Self.text(order, "status") == "AUTHORIZED")
        #expect(Self.text(order, "authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        let transactions = try #require(order["transaction"] as? [[String: Any]])
        #expect(transactions.compactMap { Self.text($0, "transaction.type") } == ["AUTHENTICATION", "AUTHORIZATION"])
        let retrieved = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/az-1/transaction/auth").body)
        #expect(Self.text(retrieved, "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(retrieved, "authentication.3ds2.dsTransactionId") == dsTransactionId)
        #expect(Self.text(retrieved, "authentication.3ds2.transactionStatus") == "Y")

        let captured = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/az-1/transaction/cap",
            body: Data(#"{"apiOperation":"CAPTURE","transaction":{"amount":"56.56","currency":"USD"}}"#.utf8)
        )
        #expect(captured.status == 201)
        #expect(Self.text(ReplicaCluster.json(captured.body), "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
    }

    @Test("the error card: AUTHENTICATION_UNAVAILABLE, and a PAY naming it is refused without touching the order")
    func errorCardStopsPayment() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let port = gateways.port(0)
        let card = "5105105105105100"
        #expect(try await ReplicaCluster.send(port: port, "/order/e-1/transaction/a", body: Self.initiate(card: card)).status == 201)
        let unavailable = ReplicaCluster.json(
            try await ReplicaCluster.send(port: port, "/order/e-1/transaction/a", body: Self.authenticatePayer()).body
        )
        #expect(Self.text(unavailable, "transaction.authenticationStatus") == "AUTHENTICATION_UNAVAILABLE")
        #expect(Self.text(unavailable, "response.gatewayRecommendation") == "DO_NOT_PROCEED")

        let refused = try await ReplicaCluster.send(port: port, "/order/e-1/transaction/p", body: Self.pay(card: card, authentication: "a"))
        #expect(refused.status == 400)
        let error = ReplicaCluster.json(refused.body)
        #expect(Self.text(error, "error.field") == "authentication.transactionId")
        #expect(Self.text(error, "error.explanation")?.contains("AUTHENTICATION_UNAVAILABLE") == true)
        let order = ReplicaCluster.json(try await ReplicaCluster.send(port: port, "/order/e-1").body)
        #expect(Self.text(order, "status") == "AUTHENTICATION_UNSUCCESSFUL")
        #expect((order["transaction"] as? [[String: Any]])?.count == 1)
        #expect(try await ReplicaCluster.send(port: port, "/order/e-1/transaction/p").status == 404)
    }
}
