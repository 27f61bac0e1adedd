extension OrderLedger {
    /// UPDATE_AUTHORIZATION: the request's amount is the order's new total authorized amount,
    /// larger or smaller than the current one. Only an order still holding an authorization
    /// (AUTHORIZED or PARTIALLY_CAPTURED) may change it, never below what it has captured, so
    /// captures stay within the authorization whatever order the two come in.
    static func planUpdate(_ request: FollowOnRequest, order: OrderState, currency: Currency) throws(PaymentRejection) -> Plan {
        let amount = try sameCurrency(request, currency)
        guard order.status == .authorized || order.status == .partiallyCaptured else { throw .nothingToUpdate(order.status) }
        let totals = order.totals
        guard amount.minorUnits >= totals.captured else {
            throw .updateBelowCaptured(amount: amount, captured: Amount(minorUnits: totals.captured, currency: currency))
        }
        var after = totals
        after.authorized = amount.minorUnits
        return Plan(type: .authorizationUpdate, amount: amount, targetTransactionId: nil, voidsTarget: false, totalsIfApproved: after)
    }
}
