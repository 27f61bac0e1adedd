import Foundation
import Testing

/// 3-D Secure 1 with the card in a payment session, as the Mobile SDK samples send it (the
/// session holds the card and the order; CHECK_3DS_ENROLLMENT and PAY name `session.id`). On
/// PostgreSQL each step goes to the other of two replicas, so every state is read from the store.
extension ThreeDSecure1Tests {
    @Test("a session's card: check on one replica, the ACS, PROCESS_ACS_RESULT and PAY on the other", arguments: ThreeDSecureTests.Store.allCases)
    func session(store: ThreeDSecureTests.Store) async throws {
        let gateways = try await ThreeDSecureTests.Gateways.start(store)
        defer { gateways.stop() }
        let created = try await ThreeDSecureTests.session(port: gateways.port(0), "POST", "/session", body: nil)
        let sessionId = try #require(Self.text(created.body, "session.id"))
        let update = Data(
            #"{"order":{"amount":"56.56","currency":"USD"},"sourceOfFunds":{"provided":{"card":{"number":"4440000042200014","expiry":{"month":"1","year":"39"}}}}}"#
                .utf8
        )
        #expect(try await ThreeDSecureTests.session(port: gateways.port(1), "PUT", "/session/\(sessionId)", body: update).status == 200)

        // At version 46 the client reads summaryStatus: no gatewayRecommendation yet.
        let checked = try await Self.send(
            port: gateways.port(0),
            "PUT",
            "/3DSecureId/3ds-s",
            version: 46,
            body:
                #"{"apiOperation":"CHECK_3DS_ENROLLMENT","session":{"id":"\#(sessionId)"},"3DSecure":{"authenticationRedirect":{"responseUrl":"\#(Self.termURL)"}}}"#
        )
        #expect(checked.status == 201)
        #expect(Self.text(checked.json, "3DSecure.summaryStatus") == "CARD_ENROLLED")
        #expect(ThreeDSecureTests.value(checked.json, "response.gatewayRecommendation") == nil)
        let html = try #require(Self.text(checked.json, "3DSecure.authenticationRedirect.simple.htmlBodyContent"))
        let paReq = try #require(Self.input(html, "PaReq"))

        let answered = try await ThreeDSecureTests.post(port: gateways.port(1), "/acs/3ds1/result", [("PaReq", paReq), ("outcome", "Y")])
        #expect(answered.status == 200)
        #expect(answered.html.contains("action=\"\(Self.termURL)\""), "no TermUrl posted: the check's responseUrl")
        let paRes = try #require(Self.input(answered.html, "PaRes"))
        let processed = try await Self.send(
            port: gateways.port(1),
            "POST",
            "/3DSecureId/3ds-s",
            body: #"{"apiOperation":"PROCESS_ACS_RESULT","3DSecure":{"paRes":"\#(paRes)"}}"#
        )
        #expect(Self.text(processed.json, "3DSecure.summaryStatus") == "AUTHENTICATION_SUCCESSFUL")
        #expect(Self.text(processed.json, "3DSecure.acsEci") == "05", "a Visa card's ECI")

        let paid = try await Self.send(
            port: gateways.port(0),
            "PUT",
            "/order/o-s/transaction/p-1",
            body: #"{"apiOperation":"PAY","3DSecureId":"3ds-s","session":{"id":"\#(sessionId)"}}"#
        )
        #expect(paid.status == 201)
        #expect(Self.text(paid.json, "result") == "SUCCESS")
        #expect(Self.text(paid.json, "3DSecureId") == "3ds-s")
        #expect(Self.text(paid.json, "3DSecure.acsEci") == "05")
        #expect(Self.text(paid.json, "sourceOfFunds.provided.card.number") == "444000xxxxxx0014")
    }
}
