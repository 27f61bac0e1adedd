import Foundation
import GatewayCore
import HummingbirdTesting
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// Stores written by release a4939e6 (the last before the typed core), made by
/// Fixtures/release-a4939e6/make-fixtures.py: opened in place, read, and written on.
@Suite("Stores from an earlier release")
struct ReleaseUpgradeTests {
    /// A copy of the release's store of this kind, as a store URL.
    static func releaseStore(_ kind: StoreKind) async throws -> String { try await ReleaseStores.copy("a4939e6", kind) }

    @Test("a store written by release a4939e6 is upgraded in place and serves its orders", arguments: StoreKind.allCases)
    func upgradeInPlace(kind: StoreKind) async throws {
        let gateway = try await TestGateway(storeURL: try await Self.releaseStore(kind))
        let store = gateway.services.store
        // Inside the application, which runs the PostgreSQL pool as one of its services.
        try await gateway.application.test(.router) { client in
            // Before anything is written: the first write prunes replay records this old (2023).
            #expect(try await store.isUsed("aptx-today-1"))
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/today-auth", method: .get)
            #expect(order.status == .ok)
            #expect(order.string("status") == "PARTIALLY_CAPTURED")
            #expect(order.value("totalCapturedAmount") as? Double == 40)
            #expect((order.value("transaction") as? [Any])?.count == 2)

            // The rest of the authorization can be captured, on top of the release's capture.
            let capture = try await client.put(
                TestGateway.path(order: "today-auth", transaction: "c2"),
                TestGateway.json([
                    "apiOperation": "CAPTURE", "transaction": ["amount": "60.00", "currency": "USD"],
                ])
            )
            #expect(capture.status == .created, "\(capture.body)")
            #expect(capture.string("order.status") == "CAPTURED")
            #expect(capture.string("sourceOfFunds.provided.card.number") == "520424xxxxxx1488")

            // The release's voided refund stays voided: it cannot be voided again.
            let void = try await client.put(
                TestGateway.path(order: "today-paid", transaction: "v2"),
                TestGateway.json(["apiOperation": "VOID", "transaction": ["targetTransactionId": "r1"]])
            )
            #expect(void.status == .badRequest)
            #expect(void.string("error.explanation") == "Value 'VOID' is invalid. There is no transaction to void.")

            // A declined order can still get its first successful payment.
            let paid = try await client.put(
                TestGateway.path(order: "today-declined", transaction: "2"),
                TestGateway.cardBody(amount: "100.00")
            )
            #expect(paid.status == .created)
            #expect(paid.string("order.status") == "CAPTURED")

            let stored = try #require(try await store.order(merchantId: "TESTMERCHANT", orderId: "today-paid"))
            #expect(stored.version == 3)
            #expect(stored.state.status == .captured)
            let voided = try await store.transactions(merchantId: "TESTMERCHANT", orderId: "today-paid").map(\.voided)
            #expect(voided == [false, true, false])
            let auth = try #require(try await store.order(merchantId: "TESTMERCHANT", orderId: "today-auth"))
            #expect(auth.version == 3)
            #expect(auth.hasSuccessfulInitialTransaction)
        }
    }

    @Test("the release's schema version is brought up to this gateway's", arguments: StoreKind.allCases)
    func schemaVersion(kind: StoreKind) async throws {
        let url = try await Self.releaseStore(kind)
        // The application migrates before it serves (a live server runs its whole lifecycle).
        try await TestGateway(storeURL: url).application.test(.live) { _ in }
        switch try StoreLocation(url: url) {
        case .sqlite(let path):
            let version = try SQLiteConnection(path: path).query("PRAGMA user_version").first?.first?.integer
            #expect(version == Int64(SQLiteMigrations.steps.count))
        case .postgres(let location):
            let version = try await PostgresTestServer.shared().psql("SELECT version FROM gateway_schema", database: location.database)
            #expect(version == String(PostgresMigrations.steps.count))
        }
    }
}
