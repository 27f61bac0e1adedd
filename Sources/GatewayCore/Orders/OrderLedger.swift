import Foundation

/// The money rules of an order: what a transaction may do given what happened before, and
/// what it does to the order's totals and status. Every store applies what these decide;
/// none decides anything itself.
package enum OrderLedger {
    package struct Totals: Sendable, Hashable {
        package var authorized: Int64
        package var captured: Int64
        package var refunded: Int64

        package init(authorized: Int64, captured: Int64, refunded: Int64) {
            self.authorized = authorized
            self.captured = captured
            self.refunded = refunded
        }
    }

    /// What a follow-on transaction will be.
    package struct Plan: Sendable, Hashable {
        package var type: TransactionType
        package var amount: Amount
        package var targetTransactionId: String?
        package var voidsTarget: Bool
        package var totalsIfApproved: Totals
    }

    /// Decides whether a CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION may run on the order, and
    /// for how much.
    package static func plan(
        _ request: FollowOnRequest,
        order: OrderState,
        transactions: [TransactionSummary]
    ) throws(PaymentRejection) -> Plan {
        let totals = order.totals
        guard let currency = Currency(code: order.currency) else { throw .orderCurrencyUnknown(order.currency) }
        switch request.operation {
        case .capture:
            let amount = try sameCurrency(request, currency)
            guard order.status == .authorized || order.status == .partiallyCaptured else { throw .nothingToCapture }
            let available = totals.authorized - totals.captured
            guard amount.minorUnits <= available else {
                throw .exceedsAvailable(.capture, amount: amount, available: Amount(minorUnits: max(available, 0), currency: currency))
            }
            var after = totals
            after.captured += amount.minorUnits
            return Plan(type: .capture, amount: amount, targetTransactionId: nil, voidsTarget: false, totalsIfApproved: after)
        case .refund:
            let amount = try sameCurrency(request, currency)
            let available = totals.captured - totals.refunded
            guard totals.captured > 0 else { throw .nothingCaptured }
            if let target = request.targetTransactionId {
                guard
                    transactions.contains(where: {
                        $0.transactionId == target && $0.succeeded && !$0.voided && ($0.type == .capture || $0.type == .payment)
                    })
                else { throw .refundTargetNotFound(target) }
            }
            guard amount.minorUnits <= available else {
                throw .exceedsAvailable(.refund, amount: amount, available: Amount(minorUnits: max(available, 0), currency: currency))
            }
            var after = totals
            after.refunded += amount.minorUnits
            return Plan(
                type: .refund,
                amount: amount,
                targetTransactionId: request.targetTransactionId,
                voidsTarget: false,
                totalsIfApproved: after
            )
        case .void:
            let targetId = request.targetTransactionId ?? ""
            guard let target = transactions.first(where: { $0.transactionId == targetId }), target.succeeded,
                !target.voided, let type = target.type.voidType, let after = totalsAfterVoiding(target, totals)
            else { throw .nothingToVoid }
            return Plan(
                type: type,
                amount: Amount(minorUnits: target.amountMinorUnits, currency: currency),
                targetTransactionId: targetId,
                voidsTarget: true,
                totalsIfApproved: after
            )
        case .updateAuthorization:
            return try planUpdate(request, order: order, currency: currency)
        }
    }

    /// The order status that follows from its totals.
    package static func status(_ totals: Totals) -> OrderStatus {
        if totals.refunded > 0 { return totals.refunded >= totals.captured ? .refunded : .partiallyRefunded }
        if totals.captured > 0 { return totals.captured >= totals.authorized ? .captured : .partiallyCaptured }
        return totals.authorized > 0 ? .authorized : .cancelled
    }

    /// The order after an AUTHORIZE, PAY or VERIFY: a decline authorizes nothing.
    package static func orderAfterInitial(
        _ outcome: AcquirerOutcome,
        request: PaymentRequest,
        createdAt: Date
    ) -> OrderState {
        orderAfterInitial(
            outcome,
            operation: request.operation,
            amount: request.amount,
            walletProvider: request.walletProvider?.rawValue,
            reference: request.orderReference,
            createdAt: createdAt
        )
    }

    /// The order after its AUTHORIZE, PAY or VERIFY, whatever paid it (a card, a browser payment).
    package static func orderAfterInitial(
        _ outcome: AcquirerOutcome,
        operation: PaymentRequest.Operation,
        amount: Amount,
        walletProvider: String?,
        reference: String?,
        createdAt: Date
    ) -> OrderState {
        let authorized = outcome.succeeded ? outcome.authorizedMinorUnits : 0
        let status: OrderStatus =
            switch (outcome.succeeded, operation) {
            case (true, .authorize): .authorized
            case (true, .pay): .captured
            case (true, .verify): .verified
            case (false, _): outcome.result == .pending ? .initiated : .failed
            }
        return OrderState(
            amountMinorUnits: amount.minorUnits,
            currency: amount.currency.code,
            status: status,
            totalAuthorizedMinorUnits: authorized,
            totalCapturedMinorUnits: operation == .pay ? authorized : 0,
            totalRefundedMinorUnits: 0,
            walletProvider: walletProvider,
            reference: reference,
            creationTime: createdAt
        )
    }

    /// The order after a follow-on transaction: only an approval moves its totals and status.
    package static func orderAfterFollowOn(_ plan: Plan, _ outcome: AcquirerOutcome, order: OrderState) -> OrderState {
        guard outcome.succeeded else { return order }
        var after = order
        after.totals = plan.totalsIfApproved
        after.status = status(plan.totalsIfApproved)
        return after
    }

    private static func totalsAfterVoiding(_ target: TransactionSummary, _ totals: Totals) -> Totals? {
        var after = totals
        let amount = target.amountMinorUnits
        switch target.type {
        case .authorization:
            // An authorization with captures against it can no longer be voided.
            guard totals.captured == 0 else { return nil }
            after.authorized = 0
        case .capture:
            guard totals.captured - amount >= totals.refunded else { return nil }
            after.captured -= amount
        case .payment:
            // A payment moved what the acquirer approved, which a partial approval makes less
            // than the amount it recorded: voiding it undoes all of the order's money.
            guard totals.refunded == 0 else { return nil }
            after.captured = 0
            after.authorized = 0
        case .refund:
            after.refunded -= amount
        default:
            return nil
        }
        return after
    }

    static func sameCurrency(_ request: FollowOnRequest, _ currency: Currency) throws(PaymentRejection) -> Amount {
        guard let amount = request.amount else { throw .amountMissing }
        guard amount.currency == currency else { throw .currencyMismatch(amount.currency, orderCurrency: currency) }
        return amount
    }
}
