import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

/// Nothing of a session reaches the logs or the metrics: not its id (the Mobile SDK's
/// credential), not its card number, security code, token or cryptogram.
@Suite("Sessions: secrecy")
struct SessionSecrecyTests {
    @Test("the whole flow, errors included, leaves no session id or card data in logs or metrics")
    func nothingLogged() async throws {
        let gateway = try await TestGateway()
        let logs = LogCollector()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let tokenData = try SessionStorageTests.tokenData(token)
        var secrets: [String] = [String(tokenData.prefix(32)), "5123450000000008"]
        let metrics = try await gateway.application(logger: logs.logger).test(.live) { client in
            let id = try await client.newSessionId()
            let cardSession = try await client.newSessionId()
            _ = try await client.put(SessionRequests.sessionPath(cardSession), SessionRequests.cardUpdate())
            _ = try await client.put(
                SessionRequests.sessionPath(id),
                SessionRequests.tokenUpdate(token),
                authorization: SessionRequests.sessionCredential(id)
            )
            _ = try await client.send(SessionRequests.sessionPath(id), method: .get)
            _ = try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate(number: "12"))
            _ = try await client.put(
                TestGateway.path(order: "secret", transaction: "1"),
                SessionRequests.payment(id, sessionVersion: "0000000000")
            )
            let paid = try await client.put(TestGateway.path(order: "secret", transaction: "2"), SessionRequests.payment(id))
            #expect(paid.string("result") == "SUCCESS")
            _ = try await client.send(SessionRequests.sessionPath(id), method: .get)
            return (try await client.send("/metrics", method: .get).body, [id, cardSession])
        }
        secrets += metrics.1
        let logged = logs.all.joined(separator: "\n")
        #expect(logged.contains("session created"))
        #expect(logged.contains("/session/{sessionId}"))
        for secret in secrets {
            #expect(!logged.contains(secret), "the log holds \(secret.prefix(12))...")
            #expect(!metrics.0.contains(secret), "the metrics hold \(secret.prefix(12))...")
        }
        #expect(!logged.contains("SESSION"))
        #expect(metrics.0.contains("/session/{sessionId}"))
    }

    @Test("a card number typed as the cardholder's name is masked in the update's answer and the retrieval")
    func numberAsName() async throws {
        let gateway = try await TestGateway()
        try await gateway.application(logger: LogCollector().logger).test(.live) { client in
            let id = try await client.newSessionId()
            let update = TestGateway.json([
                "sourceOfFunds": [
                    "provided": [
                        "card": [
                            "number": "5123450000000008", "nameOnCard": "5123 4500 0000 0008",
                            "expiry": ["month": "1", "year": "39"],
                        ]
                    ]
                ]
            ])
            let updated = try await client.put(SessionRequests.sessionPath(id), update)
            #expect(updated.string("sourceOfFunds.provided.card.nameOnCard") == "5123 45xx xxxx 0008")
            let retrieved = try await client.send(SessionRequests.sessionPath(id), method: .get)
            #expect(retrieved.string("sourceOfFunds.provided.card.nameOnCard") == "5123 45xx xxxx 0008")
            #expect(!retrieved.body.contains("4500 0000"))
        }
    }
}
