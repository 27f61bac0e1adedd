import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// A session pays once, and the payer's device sets only what a payer may.
@Suite("Sessions: one payment, payer fields only")
struct SessionUseTests {
    @Test("four concurrent PAYs on one card session, on four orders: exactly one succeeds", arguments: StoreKind.allCases)
    func concurrentPaysOnOneSession(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        try await gateway.application.test(.live) { client in
            let sessionId = try await client.newSessionId()
            let update = try await client.put(SessionRequests.sessionPath(sessionId), SessionRequests.cardUpdate())
            #expect(update.status == .ok)
            let port = try #require(client.port)
            let results = try await ParallelHTTP.put(
                port: port,
                paths: (0..<4).map { TestGateway.path(order: "session-race-\($0)", transaction: "1") }
            ) { _ in SessionRequests.payment(sessionId, amount: "10.00") }
            let successes = results.filter { $0.status == 201 && ($0.json["result"] as? String) == "SUCCESS" }
            #expect(successes.count == 1, "\(results.map(\.status))")
            #expect(results.filter { $0.status == 400 }.count == 3, "\(results.map(\.status))")
            var orders = 0
            for index in 0..<4
            where try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "session-race-\(index)") != nil {
                orders += 1
            }
            #expect(orders == 1)
        }
    }

    @Test("the session credential may not set order.amount (or other merchant fields); the merchant's may")
    func payerCannotSetAmount() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let sessionId = try await client.newSessionId()
            for body in [["order": ["amount": "0.01", "currency": "USD"]], ["order": ["currency": "USD"]]] {
                let refused = try await client.put(
                    SessionRequests.sessionPath(sessionId),
                    TestGateway.json(body),
                    authorization: SessionRequests.sessionCredential(sessionId)
                )
                #expect(refused.status == .badRequest, "\(refused.body)")
                #expect(refused.string("error.explanation")?.contains("payer's device") == true, "\(refused.body)")
            }
            let retrieved = try await client.send(SessionRequests.sessionPath(sessionId), method: .get)
            #expect(retrieved.value("order.amount") == nil)
            // The payer's card and wallet provider are the payer's to set.
            let card = try await client.put(
                SessionRequests.sessionPath(sessionId),
                SessionRequests.cardUpdate(),
                authorization: SessionRequests.sessionCredential(sessionId)
            )
            #expect(card.status == .ok, "\(card.body)")
            // The merchant's own credential may set the amount.
            let merchant = try await client.put(
                SessionRequests.sessionPath(sessionId),
                TestGateway.json(["order": ["amount": "12.00", "currency": "USD"]])
            )
            #expect(merchant.status == .ok, "\(merchant.body)")
        }
    }
}
