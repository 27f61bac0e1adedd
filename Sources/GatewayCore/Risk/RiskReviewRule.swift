/// What an operator's rejection in a risk review does to the order: the payment stays as the
/// acquirer left it (an authorization is not reversed for the merchant), but no more money may
/// be taken on it. A VOID or REFUND, which give the money back, may follow.
package enum RiskReviewRule {
    package static func check(
        _ request: FollowOnRequest,
        orderId: String,
        transactions: [TransactionSummary]
    ) throws(PaymentRejection) {
        switch request.operation {
        case .capture, .updateAuthorization:
            if transactions.contains(where: { $0.receipt.risk?.review.decision == .rejected }) {
                throw .riskReviewRejected(orderId)
            }
        case .refund, .void:
            return
        }
    }
}
