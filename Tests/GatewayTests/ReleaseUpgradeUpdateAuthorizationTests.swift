import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// An authorization recorded by release a4939e6 (before UPDATE_AUTHORIZATION existed) is updated
/// on the upgraded store, and the new transaction type reads back from it.
@Suite("UPDATE_AUTHORIZATION on a store from an earlier release")
struct ReleaseUpgradeUpdateAuthorizationTests {
    @Test("the release's partially captured authorization takes an update; the store reads it back", arguments: StoreKind.allCases)
    func updateReleaseAuthorization(kind: StoreKind) async throws {
        let gateway = try await TestGateway(storeURL: try await ReleaseUpgradeTests.releaseStore(kind))
        let store = gateway.services.store
        try await gateway.application.test(.router) { client in
            let body = { (amount: String) in
                TestGateway.json(["apiOperation": "UPDATE_AUTHORIZATION", "transaction": ["amount": amount, "currency": "USD"]])
            }
            let update = try await client.put(TestGateway.path(order: "today-auth", transaction: "u1"), body("50.00"))
            #expect(update.status == .created, "\(update.body)")
            #expect(update.string("transaction.type") == "AUTHORIZATION_UPDATE")
            #expect(update.string("order.status") == "PARTIALLY_CAPTURED")
            #expect(update.value("order.totalAuthorizedAmount") as? Double == 50)
            #expect(update.string("sourceOfFunds.provided.card.number") == "520424xxxxxx1488")
            let below = try await client.put(TestGateway.path(order: "today-auth", transaction: "u2"), body("39.99"))
            #expect(below.status == .badRequest)

            let transactions = try await store.transactions(merchantId: "TESTMERCHANT", orderId: "today-auth")
            #expect(transactions.map(\.type) == [.authorization, .capture, .authorizationUpdate])
            let order = try #require(try await store.order(merchantId: "TESTMERCHANT", orderId: "today-auth"))
            #expect(order.state.totalAuthorizedMinorUnits == 5000 && order.state.totalCapturedMinorUnits == 4000)
            let retrieved = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/today-auth", method: .get)
            #expect(retrieved.value("totalAuthorizedAmount") as? Double == 50)
            #expect((retrieved.value("transaction") as? [[String: Any]])?.count == 3)
        }
    }
}
