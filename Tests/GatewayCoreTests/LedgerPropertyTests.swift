import Foundation
import GatewayCore
import PropertyBased
import Testing

/// Random sequences of AUTHORIZE/PAY then AUTHORIZE, CAPTURE, REFUND, VOID and UPDATE_AUTHORIZATION,
/// with random amounts and outcomes: whatever happens, the ledger's invariants hold.
@Suite("Ledger properties")
struct LedgerPropertyTests {
    /// The order's money never goes wrong: nothing negative, captured within authorized,
    /// refunded within captured.
    static func expectSound(_ totals: OrderLedger.Totals, _ context: String) {
        #expect(totals.authorized >= 0 && totals.captured >= 0 && totals.refunded >= 0, "\(context)")
        #expect(totals.captured <= totals.authorized, "captured beyond authorized: \(context)")
        #expect(totals.refunded <= totals.captured, "refunded beyond captured: \(context)")
    }

    @Test("the ledger alone: totals stay sound, a decline or a rejection moves nothing, the status follows the totals")
    func ledger() async {
        await propertyCheck(count: 300, input: Step.openings, Step.sequences) { opening, steps in
            let (operation, cents) = opening
            let request = Processors.card(operation, cents: cents)
            let outcome = SimulatedAcquirer.describe(SimulatedAcquirer().gatewayCode(forAmount: request.amount), amount: request.amount)
            var order = OrderLedger.orderAfterInitial(outcome, request: request, createdAt: Date(milliseconds: 0))
            var transactions = [
                // As the processor records it: the amount asked for, whatever was approved.
                Ledger.transaction("initial", operation.transactionType, cents, succeeded: outcome.succeeded)
            ]
            Self.expectSound(order.totals, "after \(operation) \(cents)")
            for (index, step) in steps.enumerated() {
                let before = order
                let followOn: FollowOnRequest
                switch step.request(transactionIds: transactions.map(\.transactionId)) {
                case .payment(let request):
                    // Refused once an AUTHORIZE or PAY succeeded; otherwise it opens the order afresh.
                    let opened = transactions.contains { ($0.type == .authorization || $0.type == .payment) && $0.succeeded }
                    guard !opened else { continue }
                    let code = SimulatedAcquirer().gatewayCode(forAmount: request.amount)
                    let outcome = SimulatedAcquirer.describe(code, amount: request.amount)
                    order = OrderLedger.orderAfterInitial(outcome, request: request, createdAt: order.creationTime)
                    if !step.approve { #expect(order.totals == before.totals, "a declined \(step) moved a total") }
                    transactions.append(
                        Ledger.transaction("t\(index)", .authorization, request.amount.minorUnits, succeeded: outcome.succeeded)
                    )
                    Self.expectSound(order.totals, "after \(steps.prefix(index + 1))")
                    continue
                case .followOn(let request):
                    followOn = request
                }
                let plan: OrderLedger.Plan
                do {
                    plan = try OrderLedger.plan(followOn, order: order, transactions: transactions)
                } catch {
                    // A rejected request changes nothing: `order` is untouched. An update is
                    // refused only when the order holds no authorization or it is below the captures.
                    if followOn.operation == .updateAuthorization, let amount = followOn.amount {
                        let holds = order.status == .authorized || order.status == .partiallyCaptured
                        #expect(
                            !holds || amount.minorUnits < order.totalCapturedMinorUnits,
                            "update refused on \(order.status) \(order.totals): \(error)"
                        )
                    }
                    continue
                }
                let outcome = step.approve ? Ledger.approved : Ledger.declined
                order = OrderLedger.orderAfterFollowOn(plan, outcome, order: order)
                if !step.approve { #expect(order == before, "a declined \(step) moved the order") }
                if step.approve { #expect(order.status == OrderLedger.status(order.totals)) }
                if step.approve, plan.type == .authorizationUpdate {
                    // The new total is what is authorized now: later captures are held to it.
                    #expect(
                        order.totals
                            == OrderLedger.Totals(
                                authorized: plan.amount.minorUnits,
                                captured: before.totalCapturedMinorUnits,
                                refunded: before.totalRefundedMinorUnits
                            )
                    )
                }
                if step.approve, plan.voidsTarget, let target = plan.targetTransactionId {
                    transactions = transactions.map { summary in
                        var summary = summary
                        if summary.transactionId == target { summary.voided = true }
                        return summary
                    }
                }
                transactions.append(Ledger.transaction("t\(index)", plan.type, plan.amount.minorUnits, succeeded: step.approve))
                Self.expectSound(order.totals, "after \(steps.prefix(index + 1))")
            }
        }
    }
}
