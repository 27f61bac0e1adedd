/// Where 3-D Secure 1 authentications live: beside the orders, so the ACS page, PROCESS_ACS_RESULT
/// and the payment may each reach a different replica. Like ``AuthenticationStore`` it decides
/// nothing.
package protocol ThreeDS1Store: Sendable {
    /// The merchant's authentication under this `3DSecureId`, if any.
    func threeDS1Authentication(merchantId: String, threeDSecureId: String) async throws -> ThreeDS1Authentication?

    /// The authentication whose ACS page has this PaReq.
    func threeDS1Authentication(paReq: String) async throws -> ThreeDS1Authentication?

    /// Stores a new authentication; false when the merchant has one under its id already.
    func insertThreeDS1Authentication(_ authentication: ThreeDS1Authentication) async throws -> Bool

    /// Replaces the authentication when the stored revision is still `expectedRevision`.
    func replaceThreeDS1Authentication(_ authentication: ThreeDS1Authentication, expectedRevision: Int64) async throws -> Bool
}
