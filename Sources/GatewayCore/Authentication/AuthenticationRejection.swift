/// Why the gateway refused a 3-D Secure request, or a payment's `authentication.transactionId`:
/// one case per rule, worded by each front end.
package enum AuthenticationRejection: Error, Sendable, Hashable {
    /// A payment names an authentication this merchant's order does not have.
    case notFound(transactionId: String)
    /// A payment names an authentication that did not succeed (failed, pending, unavailable).
    case notSuccessful(transactionId: String, status: AuthenticationStatus)
    /// AUTHENTICATE_PAYER on a transaction id INITIATE_AUTHENTICATION has not started.
    case notInitiated(transactionId: String)
    /// INITIATE_AUTHENTICATION or AUTHENTICATE_PAYER on an authentication already past that step.
    case alreadyAuthenticated(transactionId: String, status: AuthenticationStatus)
    /// AUTHENTICATE_PAYER on an authentication initiated with `acceptVersions` naming no version
    /// the simulator has (it has 3DS2 only).
    case noAcceptedVersion(acceptVersions: String)
    /// AUTHENTICATE_PAYER in another currency than INITIATE_AUTHENTICATION's.
    case currencyMismatch(Currency, initiated: Currency)
    /// A payment naming an authentication in another currency, or for more than was authenticated:
    /// the issuer vouched for that amount, not for any payment on the order.
    case amountNotAuthenticated(transactionId: String, payment: Amount, authenticated: Amount)
    /// The ACS page was asked for a challenge that is unknown or already answered.
    case challengeNotPending
    /// Another request changed the authentication while this one was decided.
    case changed
    /// Production mode: this gateway reaches no directory server, so it authenticates no one.
    case notEnabled
}
