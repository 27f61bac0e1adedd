import GatewayCore
import PropertyBased

/// One random request after the order's first in a property test: another AUTHORIZE (refused
/// once one has succeeded), or a CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION.
struct Step: Sendable, CustomStringConvertible {
    enum Kind: CaseIterable, Sendable {
        case authorize, capture, refund, void
        /// UPDATE_AUTHORIZATION to a new total of five times `cents` (up to 250.00, above and
        /// below the openings), which no amount in the simulator's table divides into.
        case update
    }

    enum Request {
        case payment(PaymentRequest)
        case followOn(FollowOnRequest)
    }

    var kind: Kind
    /// Cents for an authorization, capture or refund (at most 5000: the simulator approves those).
    var cents: Int64
    /// Whether the acquirer approves it. A declined authorization, capture or refund asks for
    /// 57.57, which the simulator declines; a VOID takes its target's (approved) amount.
    var approve: Bool
    /// Which earlier transaction a VOID or a targeted REFUND names (modulo their count).
    var target: Int

    var description: String { "\(kind) \(amountCents) target \(target)" }

    /// What the step asks for, in cents: 57.57 when it is to be declined.
    var amountCents: Int64 {
        guard approve else { return 5757 }
        return kind == .update ? cents * 5 : cents
    }

    /// The request, given the ids of the transactions recorded so far.
    func request(transactionIds: [String]) -> Request {
        let amount = Amount(minorUnits: amountCents, currency: Ledger.usd)
        let targetId = transactionIds.isEmpty ? nil : transactionIds[target % transactionIds.count]
        return switch kind {
        case .authorize: .payment(Processors.card(.authorize, cents: amount.minorUnits))
        case .capture: .followOn(FollowOnRequest(operation: .capture, amount: amount, targetTransactionId: nil))
        case .refund:
            .followOn(FollowOnRequest(operation: .refund, amount: amount, targetTransactionId: target % 3 == 0 ? targetId : nil))
        case .void: .followOn(FollowOnRequest(operation: .void, amount: nil, targetTransactionId: targetId))
        case .update: .followOn(FollowOnRequest(operation: .updateAuthorization, amount: amount, targetTransactionId: nil))
        }
    }

    static let generator = zip(Gen<Kind>.case, Gen.int64(in: 1...5000), Gen.bool(0.8), Gen.int(in: 0...20))
        .map { Step(kind: $0.0, cents: $0.1, approve: $0.2, target: $0.3) }

    static let sequences = generator.array(of: 1...24)

    /// The opening transaction: AUTHORIZE or PAY, approved, partially approved or declined.
    static let openings = zip(
        Gen.element(of: [PaymentRequest.Operation.authorize, .pay]),
        Gen.element(of: [Int64(10_000), 6_161, 5_757, 20_000])
    ).map { (operation: $0.0!, cents: $0.1!) }
}
