import Foundation
import GatewayCore
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Gateway

/// session.js, its field iframes and threeDS.js as the gateway serves them, and the session
/// credential threeDS.js authenticates with. The browser run is `.ci/hosted-session-browser-test`.
@Suite("Hosted Session and threeDS.js: what the gateway serves")
struct HostedSessionScriptTests {
    @Test("session.js names the version and merchant of its path; each field is a frameable page on the gateway's origin")
    func scriptsAndFields() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let script = try await client.send("/form/version/61/merchant/TESTMERCHANT/session.js", method: .get, authorization: nil)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.hasPrefix("application/javascript") == true)
            #expect(script.body.contains("var VERSION = 61;") && script.body.contains("var MERCHANT = 'TESTMERCHANT';"))
            let hostile = try await client.send("/form/version/100/merchant/A'%3Balert(1)%2F%2F/session.js", method: .get, authorization: nil)
            #expect(!hostile.body.contains("alert(1)//'"), "the merchant id cannot break out of its string")
            for (field, label) in [("number", "card number"), ("securityCode", "security code"), ("expiryMonth", "expiry month")] {
                let page = try await client.send("/form/version/100/merchant/TESTMERCHANT/field/\(field)", method: .get, authorization: nil)
                #expect(page.status == .ok)
                #expect(page.body.contains("<title>\(label)</title>") && page.body.contains("aria-label=\"\(label)\""))
                #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors *") == true)
                #expect(page.headers[.contentSecurityPolicy]?.contains("connect-src 'self'") == true)
            }
            let unknown = try await client.send("/form/version/100/merchant/TESTMERCHANT/field/pin", method: .get, authorization: nil)
            #expect(unknown.status == .notFound)
            let threeDS = try await client.send("/static/threeDS/1.3.0/three-ds.min.js", method: .get, authorization: nil)
            #expect(threeDS.status == .ok && threeDS.body.contains("initiateAuthentication"))
            let relay = try await client.send("/static/threeDS/relay.html", method: .get, authorization: nil)
            #expect(relay.status == .ok && relay.body.contains("/static/threeDS/relay.js"))
        }
    }

    @Test("the session credential opens INITIATE_AUTHENTICATION for its own session, and no payment")
    func sessionCredential() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let sessionId = try #require(try await client.createSession().string("session.id"))
            var update = try #require(try JSONSerialization.jsonObject(with: SessionRequests.cardUpdate()) as? [String: Any])
            update["order"] = ["amount": "56.56", "currency": "USD"]
            #expect(try await client.send(SessionRequests.sessionPath(sessionId), method: .put, body: TestGateway.json(update)).status == .ok)
            let payer = SessionRequests.sessionCredential(sessionId)
            let initiate = TestGateway.json([
                "apiOperation": "INITIATE_AUTHENTICATION", "session": ["id": sessionId],
                "authentication": ["channel": "PAYER_BROWSER", "purpose": "PAYMENT_TRANSACTION"],
            ])
            let initiated = try await client.put(TestGateway.path(order: "tds-1", transaction: "a1"), initiate, authorization: payer)
            #expect(initiated.status == .created, "\(initiated.body)")
            #expect(initiated.string("transaction.authenticationStatus") == "AUTHENTICATION_AVAILABLE")

            let pay = TestGateway.json(["apiOperation": "PAY", "session": ["id": sessionId]])
            let paid = try await client.put(TestGateway.path(order: "tds-1", transaction: "p1"), pay, authorization: payer)
            #expect(paid.status == .unauthorized, "a payment needs the merchant's password")

            let other = try #require(try await client.createSession().string("session.id"))
            let foreign = try await client.put(
                TestGateway.path(order: "tds-2", transaction: "a1"),
                initiate,
                authorization: SessionRequests.sessionCredential(other)
            )
            #expect(foreign.status == .unauthorized, "another session's credential opens nothing here")
        }
    }
}
