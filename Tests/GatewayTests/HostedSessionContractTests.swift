import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import GatewayCore
@testable import MPGSAPI

/// What Hosted Session integrations send besides the card: `UPDATE_SESSION` as Update Session's
/// operation, and nulls for optional fields (WooCommerce's module sends `"3DSecureId": null` on
/// every payment, at version 100 where the field is gone).
@Suite("Hosted Session: the session contract plugins send")
struct HostedSessionContractTests {
    @Test("Update Session with apiOperation UPDATE_SESSION, then PAY with session.id and \"3DSecureId\": null")
    func updateSessionThenPay() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let created = try await client.createSession()
            let sessionId = try #require(created.string("session.id"))
            var update = try #require(try JSONSerialization.jsonObject(with: SessionRequests.cardUpdate()) as? [String: Any])
            update["apiOperation"] = "UPDATE_SESSION"
            update["order"] = ["amount": "56.56", "currency": "USD"]
            let updated = try await client.send(SessionRequests.sessionPath(sessionId), method: .put, body: TestGateway.json(update))
            #expect(updated.status == .ok, "\(updated.body)")

            let paid = try await client.put(
                TestGateway.path(order: "hs-null-1", transaction: "1"),
                TestGateway.json([
                    "apiOperation": "PAY", "session": ["id": sessionId], "3DSecureId": NSNull(),
                    "sourceOfFunds": ["type": "CARD"], "transaction": ["reference": NSNull()],
                ])
            )
            #expect(paid.status == .created, "\(paid.body)")
            #expect(paid.string("response.gatewayCode") == "APPROVED")
        }
    }

    @Test("an operation Update Session does not take is still named")
    func otherOperation() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let sessionId = try #require(try await client.createSession().string("session.id"))
            let refused = try await client.send(
                SessionRequests.sessionPath(sessionId),
                method: .put,
                body: TestGateway.json(["apiOperation": "PAY"])
            )
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.field") == "apiOperation")
        }
    }

    @Test("Update Session answers pages on any origin, refusals included; the preflight allows the session credential")
    func crossOrigin() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let sessionId = try #require(try await client.createSession().string("session.id"))
            let preflight = try await client.execute(uri: SessionRequests.sessionPath(sessionId), method: .options) { $0 }
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "*")
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            let updated = try await client.send(
                SessionRequests.sessionPath(sessionId),
                method: .put,
                body: SessionRequests.cardUpdate(),
                authorization: SessionRequests.sessionCredential(sessionId)
            )
            #expect(updated.status == .ok)
            #expect(updated.headers[.accessControlAllowOrigin] == "*")
            let refused = try await client.send(
                SessionRequests.sessionPath(sessionId),
                method: .put,
                body: TestGateway.json(["order": ["amount": "1.00"]]),
                authorization: SessionRequests.sessionCredential(sessionId)
            )
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.accessControlAllowOrigin] == "*")
            #expect(refused.string("error.field") == "order.amount")
        }
    }

    @Test("a null under a name no request catalogue knows is still an unexpected parameter")
    func unknownNull() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let refused = try await client.put(
                TestGateway.path(order: "hs-null-2", transaction: "1"),
                TestGateway.json(["apiOperation": "PAY", "colour": NSNull(), "order": ["amount": "56.56", "currency": "USD"]])
            )
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.field") == "colour")
        }
    }

    @Test("Update Session while a payment holds the session is refused, and the claim holds")
    func updateWhilePaying() async throws {
        let gateway = try await TestGateway()
        let sessions = gateway.services.sessionService
        try await gateway.application.test(.live) { client in
            let sessionId = try #require(try await client.createSession(body: SessionRequests.cardUpdate()).string("session.id"))
            let opened = try #require(try await sessions.open(id: sessionId, merchantId: TestGateway.merchantId))
            _ = try await sessions.claimForPayment(opened)
            let refused = try await client.send(
                SessionRequests.sessionPath(sessionId),
                method: .put,
                body: SessionRequests.cardUpdate(number: "4440000009900010"),
                authorization: SessionRequests.sessionCredential(sessionId)
            )
            #expect(refused.status == .badRequest, "\(refused.body)")
            #expect(refused.string("error.field") == "session.id")
            let after = try #require(try await sessions.open(id: sessionId, merchantId: TestGateway.merchantId))
            #expect(after.stored.updateStatus == .claimedForPayment)
        }
    }
}
