import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

@Suite("Retrieving orders and transactions")
struct RetrievalTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    @Test(
        "a transaction comes back as it was returned; an order with every transaction, oldest first",
        arguments: StoreKind.allCases
    )
    func retrieve(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        try await gateway.application.test(.router) { client in
            let declined = try await client.put(
                TestGateway.path(order: "get-1", transaction: "a"),
                TestGateway.cardBody(amount: "57.57")
            )
            let approved = try await client.put(
                TestGateway.path(order: "get-1", transaction: "b"),
                TestGateway.cardBody(amount: "57.58")
            )

            let transaction = try await client.send(TestGateway.path(order: "get-1", transaction: "a"), method: .get)
            #expect(transaction.status == .ok)
            #expect(transaction.body == declined.body)

            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/get-1", method: .get)
            #expect(order.status == .ok)
            #expect(order.string("id") == "get-1")
            #expect(order.string("status") == "CAPTURED")
            #expect(order.value("totalCapturedAmount") as? Double == 57.58)
            #expect(order.string("result") == "SUCCESS")
            let transactions = try #require(order.value("transaction") as? [[String: Any]])
            #expect(transactions.count == 2)
            #expect((transactions.first?["transaction"] as? [String: Any])?["id"] as? String == "a")
            #expect((transactions.last?["response"] as? [String: Any])?["gatewayCode"] as? String == "APPROVED")
            #expect(approved.status == .created)
        }
    }

    @Test("unknown orders and transactions are MPGS 404s, and a merchant never sees another's")
    func notFound() async throws {
        try await gateway.application.test(.router) { client in
            _ = try await client.put(TestGateway.path(order: "mine", transaction: "1"), TestGateway.cardBody(amount: "1.00"))
            let unknown = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/nobody", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.string("result") == "ERROR")
            let unknownTransaction = try await client.send(TestGateway.path(order: "mine", transaction: "2"), method: .get)
            #expect(unknownTransaction.status == .notFound)

            let other = TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            let theirs = try await client.send(
                "/api/rest/version/100/merchant/OTHERMERCHANT/order/mine",
                method: .get,
                authorization: other
            )
            #expect(theirs.status == .notFound)
            let crossed = try await client.send(
                "/api/rest/version/100/merchant/TESTMERCHANT/order/mine",
                method: .get,
                authorization: other
            )
            #expect(crossed.status == .unauthorized)
        }
    }

    @Test("an order holding a transaction it cannot read fails loudly instead of leaving it out")
    func unreadableStoredTransaction() async throws {
        var record = SampleRecords.record(order: "garbled")
        record.merchantId = TestGateway.merchantId
        #expect(try await gateway.services.store.record(record) == .recorded)
        // A column written by something else: a status this gateway has no name for.
        guard case .sqlite(let path) = try StoreLocation(url: gateway.services.configuration.storeURL) else {
            Issue.record("the test gateway is not on SQLite")
            return
        }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("UPDATE transactions SET order_status = 'HALF_DONE' WHERE order_id = 'garbled'")
        connection.close()
        try await gateway.application.test(.router) { client in
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/garbled", method: .get)
            #expect(order.status == .internalServerError, "\(order.body)")
            #expect(order.string("error.cause") == "SERVER_FAILED")
        }
    }
}
