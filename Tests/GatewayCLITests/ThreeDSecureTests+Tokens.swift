import Foundation
import Testing

/// A gateway token as the card of INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER, as the
/// reference allows: its card decides the scenario, with the payments' precedence (request, then
/// session, then token); on PostgreSQL the token is made on one replica and used on the other.
extension ThreeDSecureTests {
    static func body(_ members: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: members)
    }

    static func newToken(port: Int, card: String) async throws -> String {
        let created = try await Self.session(
            port: port,
            "POST",
            "/token",
            body: try Self.body(["sourceOfFunds": ["type": "CARD", "provided": ["card": ["number": card, "expiry": ["month": "1", "year": "39"]]]]])
        )
        #expect(created.status == 201, "\(created.body)")
        return try #require(Self.text(created.body, "token"))
    }

    static func initiate(token: String, card: [String: Any]? = nil) throws -> Data {
        var sourceOfFunds: [String: Any] = ["type": "CARD", "token": token]
        if let card { sourceOfFunds["provided"] = ["card": card] }
        return try Self.body([
            "apiOperation": "INITIATE_AUTHENTICATION", "order": ["currency": "USD"],
            "authentication": ["channel": "PAYER_BROWSER", "purpose": "PAYMENT_TRANSACTION"], "sourceOfFunds": sourceOfFunds,
        ])
    }

    static func authenticatePayer(token: String) throws -> Data {
        try Self.body([
            "apiOperation": "AUTHENTICATE_PAYER", "order": ["amount": "56.56", "currency": "USD"],
            "authentication": ["redirectResponseUrl": redirectResponseUrl], "sourceOfFunds": ["type": "CARD", "token": token],
        ])
    }

    @Test("a gateway token is the card of both operations, and the PAY with it carries the authentication", arguments: Store.allCases)
    func token(store: Store) async throws {
        let gateways = try await Gateways.start(store)
        defer { gateways.stop() }
        let token = try await Self.newToken(port: gateways.port(0), card: "5123450000000008")

        let initiated = try await ReplicaCluster.send(port: gateways.port(1), "/order/tk-1/transaction/a", body: try Self.initiate(token: token))
        #expect(initiated.status == 201, "\(String(decoding: initiated.body, as: UTF8.self))")
        let initiation = ReplicaCluster.json(initiated.body)
        #expect(Self.text(initiation, "authentication.version") == "3DS2")
        #expect(Self.text(initiation, "transaction.authenticationStatus") == "AUTHENTICATION_AVAILABLE")
        #expect(Self.text(initiation, "sourceOfFunds.provided.card.number") == "512345xxxxxx0008")

        let authenticated = try await ReplicaCluster.send(
            port: gateways.port(0),
            "/order/tk-1/transaction/a",
            body: try Self.authenticatePayer(token: token)
        )
        #expect(authenticated.status == 201, "\(String(decoding: authenticated.body, as: UTF8.self))")
        #expect(Self.text(ReplicaCluster.json(authenticated.body), "transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")

        let pay = try Self.body([
            "apiOperation": "PAY", "order": ["amount": "56.56", "currency": "USD"], "authentication": ["transactionId": "a"],
            "sourceOfFunds": ["type": "CARD", "token": token],
        ])
        let paid = ReplicaCluster.json(try await ReplicaCluster.send(port: gateways.port(1), "/order/tk-1/transaction/p", body: pay).body)
        #expect(Self.text(paid, "result") == "SUCCESS", "\(paid)")
        #expect(Self.text(paid, "order.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(paid, "sourceOfFunds.token") == token)

        // The request's card number wins over the token's: the not-enrolled card, so no 3DS2.
        let overridden = ReplicaCluster.json(
            try await ReplicaCluster.send(
                port: gateways.port(0),
                "/order/tk-2/transaction/a",
                body: try Self.initiate(token: token, card: ["number": "5555555555554444"])
            ).body
        )
        #expect(Self.text(overridden, "authentication.version") == "NONE", "\(overridden)")
        #expect(Self.text(overridden, "sourceOfFunds.provided.card.number") == "555555xxxxxx4444")
    }

    @Test("an unknown token, or a token beside a session's Apple Pay payment, is refused in both operations; nothing is recorded")
    func tokenRefusals() async throws {
        let gateways = try await Gateways.start(.sqlite)
        defer { gateways.stop() }
        let port = gateways.port(0)
        for body in [try Self.initiate(token: "9999999999999999"), try Self.authenticatePayer(token: "9999999999999999")] {
            let refused = try await ReplicaCluster.send(port: port, "/order/tk-3/transaction/a", body: body)
            #expect(refused.status == 400)
            #expect(Self.text(ReplicaCluster.json(refused.body), "error.field") == "sourceOfFunds.token")
        }
        #expect(try await ReplicaCluster.send(port: port, "/order/tk-3").status == 404)

        let token = try await Self.newToken(port: port, card: "5123450000000008")
        let created = try await Self.session(port: port, "POST", "/session", body: nil)
        let sessionId = try #require(Self.text(created.body, "session.id"))
        let wallet = try Self.body([
            "order": ["walletProvider": "APPLE_PAY"],
            "sourceOfFunds": [
                "provided": ["card": ["devicePayment": ["cryptogramFormat": "3DSECURE", "onlinePaymentCryptogram": "AAAAAAAAAAAAAAAAAAAAAAAAAAA="]]]
            ],
        ])
        let updated = try await Self.session(port: port, "PUT", "/session/\(sessionId)", body: wallet)
        #expect(updated.status == 200, "\(updated.body)")
        let mixed = try Self.body([
            "apiOperation": "INITIATE_AUTHENTICATION", "session": ["id": sessionId], "order": ["currency": "USD"],
            "sourceOfFunds": ["type": "CARD", "token": token],
        ])
        let refused = try await ReplicaCluster.send(port: port, "/order/tk-4/transaction/a", body: mixed)
        #expect(refused.status == 400)
        #expect(Self.text(ReplicaCluster.json(refused.body), "error.field") == "sourceOfFunds.provided.card.devicePayment")
        #expect(try await ReplicaCluster.send(port: port, "/order/tk-4").status == 404)
    }
}
