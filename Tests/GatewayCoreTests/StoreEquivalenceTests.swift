import Foundation
import PropertyBased
import Synchronization
import Testing

@testable import GatewayCore

/// The same random sequences through the real processors on both stores: the invariants hold
/// at every step as stored, and SQLite and PostgreSQL end in the same state.
@Suite("Stores under random sequences")
struct StoreEquivalenceTests {
    /// What two stores must agree on (responses differ only in random authorization codes).
    struct Outcome: Equatable {
        var order: OrderState?
        var version: Int64?
        var transactions: [String]
    }

    static func run(
        _ processors: Processors,
        order: String,
        opening: (operation: PaymentRequest.Operation, cents: Int64),
        steps: [Step]
    )
        async throws -> Outcome
    {
        _ = try await processors.pay(opening.0, cents: opening.1, order: order)
        var ids = ["initial"]
        for (index, step) in steps.enumerated() {
            let before = try await processors.store.order(merchantId: "M", orderId: order)
            let id = "t\(index)"
            do {
                switch step.request(transactionIds: ids) {
                case .payment(let request):
                    _ = try await processors.payments.process(
                        request,
                        Processors.context(order: order, transaction: id),
                        logger: .init(label: "test")
                    )
                case .followOn(let request):
                    _ = try await processors.followOn(request, order: order, transaction: id)
                }
                ids.append(id)
            } catch is PaymentRejection {
                let after = try await processors.store.order(merchantId: "M", orderId: order)
                #expect(after == before, "a rejected \(step) changed the order")
                continue
            }
            let after = try #require(try await processors.store.order(merchantId: "M", orderId: order))
            LedgerPropertyTests.expectSound(after.state.totals, "\(step) on \(order)")
            // The simulator declines 57.57; a VOID's amount is its target's, which it approved.
            if !step.approve && step.kind != .void {
                #expect(after.state.totals == before?.state.totals, "a declined \(step) moved a total")
            }
            if step.approve && step.kind == .update {
                #expect(after.state.totalAuthorizedMinorUnits == step.amountCents, "\(step) did not set the authorized total")
            }
        }
        let stored = try await processors.store.order(merchantId: "M", orderId: order)
        let transactions = try await processors.store.transactions(merchantId: "M", orderId: order)
        return Outcome(
            order: stored?.state,
            version: stored?.version,
            transactions: transactions.map { "\($0.transactionId) \($0.type.rawValue) \($0.amountMinorUnits) \($0.succeeded) \($0.voided)" }
        )
    }

    @Test("SQLite and PostgreSQL end in the same state for the same sequence")
    func sameState() async throws {
        let sqlite = try Processors.sqlite()
        let postgres = try await Processors.postgres()
        let counter = Counter()
        await propertyCheck(count: 40, input: Step.openings, Step.sequences) { opening, steps in
            let order = "seq-\(counter.next())"
            let inSQLite = try await Self.run(sqlite, order: order, opening: opening, steps: steps)
            let inPostgres = try await Self.run(postgres, order: order, opening: opening, steps: steps)
            #expect(inSQLite == inPostgres, "opening \(opening), steps \(steps)")
        }
        await postgres.store.close()
    }

    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }
}
