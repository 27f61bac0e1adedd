extension PaymentProcessor {
    /// The 3-D Secure 1 authentication a plain card's payment names by `3DSecureId`, checked and
    /// claimed for the order (the caller holds the order's lock). A store that keeps none knows
    /// no id.
    func threeDS1Authentication(
        _ threeDSecureId: String,
        _ request: PaymentRequest,
        _ context: Context
    ) async throws
        -> PaymentAuthentication
    {
        guard let store = environment.authentications as? any ThreeDS1Store else {
            throw PaymentRejection.threeDS1(.notFound(threeDSecureId: threeDSecureId))
        }
        return try await store.claimForPayment(
            merchantId: context.merchant.id,
            threeDSecureId: threeDSecureId,
            orderId: context.orderId,
            amount: request.amount
        )
    }
}
