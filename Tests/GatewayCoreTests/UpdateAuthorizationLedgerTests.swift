import GatewayCore
import Testing

/// UPDATE_AUTHORIZATION's rules in the ledger: the amount is the new total, up or down, on an
/// order still holding an authorization, never below what it captured.
@Suite("Order ledger: UPDATE_AUTHORIZATION")
struct UpdateAuthorizationLedgerTests {
    typealias Totals = OrderLedger.Totals

    @Test("an increase and a decrease set the new total authorized amount; the status follows")
    func newTotal() throws {
        let authorized = Ledger.order(.authorized, authorized: 100)
        let up = try OrderLedger.plan(Ledger.update(150), order: authorized, transactions: [])
        #expect(up.type == .authorizationUpdate)
        #expect(up.amount == Ledger.dollars(150))
        #expect(up.totalsIfApproved == Totals(authorized: 150, captured: 0, refunded: 0))
        #expect(!up.voidsTarget && up.targetTransactionId == nil)
        let down = try OrderLedger.plan(Ledger.update(40), order: authorized, transactions: [])
        #expect(down.totalsIfApproved == Totals(authorized: 40, captured: 0, refunded: 0))
        let after = OrderLedger.orderAfterFollowOn(down, Ledger.approved, order: authorized)
        #expect(after.status == .authorized && after.totalAuthorizedMinorUnits == 40)
        // The order's amount is what it was opened for; only the authorization moves.
        #expect(after.amountMinorUnits == authorized.amountMinorUnits)
    }

    @Test("a partially captured order may update down to what it captured, which makes it CAPTURED")
    func partiallyCaptured() throws {
        let order = Ledger.order(.partiallyCaptured, authorized: 100, captured: 60)
        let toCaptured = try OrderLedger.plan(Ledger.update(60), order: order, transactions: [])
        #expect(OrderLedger.orderAfterFollowOn(toCaptured, Ledger.approved, order: order).status == .captured)
        let up = try OrderLedger.plan(Ledger.update(200), order: order, transactions: [])
        #expect(OrderLedger.orderAfterFollowOn(up, Ledger.approved, order: order).status == .partiallyCaptured)
        #expect(throws: PaymentRejection.updateBelowCaptured(amount: Ledger.dollars(59), captured: Ledger.dollars(60))) {
            try OrderLedger.plan(Ledger.update(59), order: order, transactions: [])
        }
    }

    @Test(
        "an order holding no authorization cannot be updated",
        arguments: [
            Ledger.order(.captured, authorized: 100, captured: 100),
            Ledger.order(.partiallyRefunded, authorized: 100, captured: 100, refunded: 10),
            Ledger.order(.refunded, authorized: 100, captured: 100, refunded: 100),
            Ledger.order(.cancelled),
            Ledger.order(.verified),
            Ledger.order(.failed),
        ]
    )
    func notAuthorized(order: OrderState) {
        #expect(throws: PaymentRejection.nothingToUpdate(order.status)) {
            try OrderLedger.plan(Ledger.update(50), order: order, transactions: [])
        }
    }

    @Test("the new total must be in the order's currency and present")
    func amountAndCurrency() {
        let order = Ledger.order(.authorized, authorized: 100)
        #expect(throws: PaymentRejection.currencyMismatch(Ledger.eur, orderCurrency: Ledger.usd)) {
            try OrderLedger.plan(Ledger.update(50, Ledger.eur), order: order, transactions: [])
        }
        #expect(throws: PaymentRejection.amountMissing) {
            try OrderLedger.plan(
                FollowOnRequest(operation: .updateAuthorization, amount: nil, targetTransactionId: nil),
                order: order,
                transactions: []
            )
        }
    }

    @Test("a declined update changes nothing, and a capture after one is held to the new total")
    func declinedAndCaptureAfter() throws {
        let order = Ledger.order(.authorized, authorized: 100)
        let plan = try OrderLedger.plan(Ledger.update(30), order: order, transactions: [])
        #expect(OrderLedger.orderAfterFollowOn(plan, Ledger.declined, order: order) == order)
        let updated = OrderLedger.orderAfterFollowOn(plan, Ledger.approved, order: order)
        #expect(throws: PaymentRejection.exceedsAvailable(.capture, amount: Ledger.dollars(31), available: Ledger.dollars(30))) {
            try OrderLedger.plan(Ledger.capture(31), order: updated, transactions: [])
        }
    }

    @Test("an update is never a VOID's target; voiding the authorization cancels the updated total")
    func voiding() throws {
        let order = Ledger.order(.authorized, authorized: 150)
        let transactions = [Ledger.transaction("1", .authorization, 100), Ledger.transaction("2", .authorizationUpdate, 150)]
        #expect(throws: PaymentRejection.nothingToVoid) {
            try OrderLedger.plan(Ledger.void("2"), order: order, transactions: transactions)
        }
        let void = try OrderLedger.plan(Ledger.void("1"), order: order, transactions: transactions)
        #expect(void.totalsIfApproved == Totals(authorized: 0, captured: 0, refunded: 0))
        #expect(OrderLedger.status(void.totalsIfApproved) == .cancelled)
    }
}
