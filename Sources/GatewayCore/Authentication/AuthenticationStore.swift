/// Where payer authentications live: in the same database as orders, so an authentication
/// started on one replica is completed, and paid with, on any other. Like ``TransactionStore``
/// it decides nothing.
package protocol AuthenticationStore: Sendable {
    /// The authentication under these identifiers, if any.
    func authentication(merchantId: String, orderId: String, transactionId: String) async throws -> PayerAuthentication?

    /// The authentication whose ACS challenge has this id.
    func authentication(challengeId: String) async throws -> PayerAuthentication?

    /// Every authentication on the order, oldest first.
    func authentications(merchantId: String, orderId: String) async throws -> [PayerAuthentication]

    /// Stores a new authentication; false when one exists under its identifiers already.
    func insertAuthentication(_ authentication: PayerAuthentication) async throws -> Bool

    /// Replaces the authentication when the stored revision is still `expectedRevision`; false
    /// when another request changed it first.
    func replaceAuthentication(_ authentication: PayerAuthentication, expectedRevision: Int64) async throws -> Bool
}

/// No authentications (a store that keeps none): every lookup finds nothing, every write fails.
package struct NoAuthenticationStore: AuthenticationStore {
    package init() {}
    package func authentication(merchantId: String, orderId: String, transactionId: String) async throws -> PayerAuthentication? { nil }
    package func authentication(challengeId: String) async throws -> PayerAuthentication? { nil }
    package func authentications(merchantId: String, orderId: String) async throws -> [PayerAuthentication] { [] }
    package func insertAuthentication(_ authentication: PayerAuthentication) async throws -> Bool { false }
    package func replaceAuthentication(_ authentication: PayerAuthentication, expectedRevision: Int64) async throws -> Bool { false }
}

extension AuthenticationStore {
    /// What an AUTHORIZE or PAY naming `transactionId` carries into the order: the order's own
    /// authentication, and one that succeeded (or does not apply to the card).
    package func authenticationForPayment(
        merchantId: String,
        orderId: String,
        transactionId: String,
        amount: Amount
    ) async throws -> PaymentAuthentication {
        guard
            let authentication = try await self.authentication(
                merchantId: merchantId,
                orderId: orderId,
                transactionId: transactionId
            )
        else { throw PaymentRejection.authentication(.notFound(transactionId: transactionId)) }
        guard authentication.status.allowsPayment else {
            throw PaymentRejection.authentication(.notSuccessful(transactionId: transactionId, status: authentication.status))
        }
        // An authenticated payer approved one amount: a lower one is a partial payment of it (a
        // split shipment); a higher one, or another currency, was never authenticated. A card
        // outside 3-D Secure (not supported) authenticated no amount, and its payment is marked so.
        guard
            authentication.status != .successful
                || (amount.currency == authentication.amount.currency && amount.minorUnits <= authentication.amount.minorUnits)
        else {
            throw PaymentRejection.authentication(
                .amountNotAuthenticated(transactionId: transactionId, payment: amount, authenticated: authentication.amount)
            )
        }
        return authentication.forPayment
    }
}
