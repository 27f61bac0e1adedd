/// Why the gateway refused a 3-D Secure 1 request, or a payment's top-level `3DSecureId`: one
/// case per rule, worded by each front end.
package enum ThreeDS1Rejection: Error, Sendable, Hashable {
    /// A payment or PROCESS_ACS_RESULT names a `3DSecureId` the merchant has not checked.
    case notFound(threeDSecureId: String)
    /// A payment names an authentication the payer has not passed (failed, or still at the ACS).
    case notSuccessful(threeDSecureId: String, status: ThreeDS1Status)
    /// A payment in another currency, or for more than was authenticated.
    case amountNotAuthenticated(threeDSecureId: String, payment: Amount, authenticated: Amount)
    /// A payment on another order names an authentication an order's payment has used.
    case alreadyUsed(threeDSecureId: String)
    /// CHECK_3DS_ENROLLMENT again on an id the merchant has used.
    case idInUse(threeDSecureId: String)
    /// PROCESS_ACS_RESULT with no ACS answer waiting for it, or with another PaRes than the ACS posted.
    case paResNotRecognized(threeDSecureId: String)
    /// The ACS page was posted a PaReq that is unknown or already answered.
    case paReqNotPending
    /// The API version has no 3-D Secure 1 operations (the reference's last is ``lastVersion``).
    case retired(version: Int)
    /// Another request changed the authentication while this one was decided.
    case changed
    /// Production mode: no directory server, so no one is authenticated.
    case notEnabled

    /// The newest API version with CHECK_3DS_ENROLLMENT, PROCESS_ACS_RESULT, Retrieve 3DS and a
    /// payment's top-level `3DSecureId`: the newest reference page of the operations we could
    /// read (version 78's); later versions authenticate with INITIATE_AUTHENTICATION only.
    package static let lastVersion = 78
}
