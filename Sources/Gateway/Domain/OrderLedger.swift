/// The money rules of an order: what a CAPTURE, REFUND or VOID may do given what happened
/// before, and the order's totals and status if the acquirer approves it.
enum OrderLedger {
    struct Totals: Sendable, Hashable {
        var authorized: Int64
        var captured: Int64
        var refunded: Int64
    }

    /// What a follow-on transaction will be.
    struct Plan: Sendable {
        var type: String
        var amountMinorUnits: Int64
        var targetTransactionId: String?
        var voidsTarget: Bool
        var totalsIfApproved: Totals
    }

    static func plan(
        _ request: FollowOnRequest,
        order: StoredOrder,
        transactions: [TransactionSummary]
    )
        throws(GatewayError) -> Plan
    {
        let totals = Totals(
            authorized: order.state.totalAuthorizedMinorUnits,
            captured: order.state.totalCapturedMinorUnits,
            refunded: order.state.totalRefundedMinorUnits
        )
        switch request.operation {
        case .capture:
            let amount = try sameCurrency(request, order)
            guard ["AUTHORIZED", "PARTIALLY_CAPTURED"].contains(order.state.status) else {
                throw GatewayError.invalidValue("apiOperation", "CAPTURE", "The order has no authorization to capture")
            }
            let available = totals.authorized - totals.captured
            guard amount <= available else {
                throw exceeds("transaction.amount", amount, available, order, "capture")
            }
            var after = totals
            after.captured += amount
            return Plan(type: "CAPTURE", amountMinorUnits: amount, targetTransactionId: nil, voidsTarget: false, totalsIfApproved: after)
        case .refund:
            let amount = try sameCurrency(request, order)
            let available = totals.captured - totals.refunded
            guard totals.captured > 0 else {
                throw GatewayError.invalidValue("apiOperation", "REFUND", "No funds have been captured on this order")
            }
            if let target = request.targetTransactionId {
                guard
                    transactions.contains(where: {
                        $0.transactionId == target && $0.succeeded && !$0.voided && ["CAPTURE", "PAYMENT"].contains($0.type)
                    })
                else {
                    throw GatewayError.invalidValue(
                        "transaction.targetTransactionId",
                        target,
                        "It names no successful capture or payment on this order"
                    )
                }
            }
            guard amount <= available else { throw exceeds("transaction.amount", amount, available, order, "refund") }
            var after = totals
            after.refunded += amount
            return Plan(
                type: "REFUND",
                amountMinorUnits: amount,
                targetTransactionId: request.targetTransactionId,
                voidsTarget: false,
                totalsIfApproved: after
            )
        case .void:
            let targetId = request.targetTransactionId ?? ""
            guard let target = transactions.first(where: { $0.transactionId == targetId }), target.succeeded,
                !target.voided, let after = totalsAfterVoiding(target, totals)
            else { throw nothingToVoid }
            return Plan(
                type: "VOID_\(target.type)",
                amountMinorUnits: target.amountMinorUnits,
                targetTransactionId: targetId,
                voidsTarget: true,
                totalsIfApproved: after
            )
        }
    }

    /// The order status that follows from its totals.
    static func status(_ totals: Totals) -> String {
        if totals.refunded > 0 { return totals.refunded >= totals.captured ? "REFUNDED" : "PARTIALLY_REFUNDED" }
        if totals.captured > 0 { return totals.captured >= totals.authorized ? "CAPTURED" : "PARTIALLY_CAPTURED" }
        return totals.authorized > 0 ? "AUTHORIZED" : "CANCELLED"
    }

    /// MPGS's own words when there is nothing a VOID could undo.
    static let nothingToVoid = GatewayError(
        status: .badRequest,
        cause: .invalidRequest,
        explanation: "Value 'VOID' is invalid. There is no transaction to void.",
        field: "apiOperation",
        validationType: .invalid
    )

    private static func totalsAfterVoiding(_ target: TransactionSummary, _ totals: Totals) -> Totals? {
        var after = totals
        let amount = target.amountMinorUnits
        switch target.type {
        case "AUTHORIZATION":
            // An authorization with captures against it can no longer be voided.
            guard totals.captured == 0 else { return nil }
            after.authorized = 0
        case "CAPTURE":
            guard totals.captured - amount >= totals.refunded else { return nil }
            after.captured -= amount
        case "PAYMENT":
            guard totals.refunded == 0 else { return nil }
            after.captured -= amount
            after.authorized -= amount
        case "REFUND":
            after.refunded -= amount
        default:
            return nil
        }
        return after
    }

    private static func sameCurrency(_ request: FollowOnRequest, _ order: StoredOrder) throws(GatewayError) -> Int64 {
        guard let amount = request.amount else { throw GatewayError.missing("transaction.amount") }
        guard amount.currency.code == order.state.currency else {
            throw GatewayError.invalidValue(
                "transaction.currency",
                amount.currency.code,
                "The order's currency is \(order.state.currency)"
            )
        }
        return amount.minorUnits
    }

    private static func exceeds(
        _ field: String,
        _ amount: Int64,
        _ available: Int64,
        _ order: StoredOrder,
        _ verb: String
    )
        -> GatewayError
    {
        let currency = Currency(code: order.state.currency)!
        return GatewayError.invalidValue(
            field,
            Amount(minorUnits: amount, currency: currency).text,
            "The amount exceeds the \(Amount(minorUnits: max(available, 0), currency: currency).text) available to \(verb)"
        )
    }
}
