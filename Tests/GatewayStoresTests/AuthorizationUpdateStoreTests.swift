import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// An AUTHORIZATION_UPDATE as each store keeps it: its type and the order it leaves, read back
/// typed after the store is reopened, and refused on an order another record moved first.
@Suite("Store behaviour: AUTHORIZATION_UPDATE")
struct AuthorizationUpdateStoreTests {
    static func record(
        _ transaction: String,
        type: TransactionType,
        operation: APIOperation,
        authorized: Int64,
        expectedVersion: Int64?
    )
        -> TransactionRecord
    {
        var record = SampleRecords.record(order: "upd", transaction: transaction)
        record.receipt.transactionType = type
        record.receipt.amount = Amount(minorUnits: authorized, currency: Currency(code: "USD")!)
        record.receipt.order.status = .authorized
        record.receipt.order.totals = OrderLedger.Totals(authorized: authorized, captured: 0, refunded: 0)
        record.operation = operation
        record.isInitial = expectedVersion == nil
        record.expectedOrderVersion = expectedVersion
        return record
    }

    @Test("the update's type and the order's new total read back after reopening", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try await fixture.open()
        #expect(
            try await store.record(Self.record("1", type: .authorization, operation: .authorize, authorized: 100, expectedVersion: nil)) == .recorded
        )
        let update = Self.record("2", type: .authorizationUpdate, operation: .updateAuthorization, authorized: 150, expectedVersion: 1)
        #expect(try await store.record(update) == .recorded)
        // A second update decided on the order as it was before the first one is refused.
        let stale = Self.record("3", type: .authorizationUpdate, operation: .updateAuthorization, authorized: 90, expectedVersion: 1)
        #expect(try await store.record(stale) == .orderChanged)

        let reopened = try await fixture.open()
        let transactions = try await reopened.transactions(merchantId: "M", orderId: "upd")
        #expect(transactions.map(\.type) == [.authorization, .authorizationUpdate])
        #expect(transactions.last?.receipt == update.receipt)
        let order = try #require(try await reopened.order(merchantId: "M", orderId: "upd"))
        #expect(order.state.totalAuthorizedMinorUnits == 150 && order.state.status == .authorized)
        #expect(order.version == 2)
        let stored = try await reopened.transaction(merchantId: "M", orderId: "upd", transactionId: "2")
        #expect(stored?.receipt.transactionType == .authorizationUpdate)
    }
}
