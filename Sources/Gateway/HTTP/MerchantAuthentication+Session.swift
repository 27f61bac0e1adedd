import Hummingbird

extension MerchantAuthentication {
    /// How an Update Session request was authenticated.
    enum SessionCredential {
        case apiPassword
        /// `merchant.<ID>` with the session id as the password, as the mobile SDKs send from
        /// API version 50 on. It opens the session it names and nothing else: every other route
        /// checks API passwords only, so there it is just a wrong password.
        case sessionId
    }

    /// The merchant's API password, or the session credential for the session in the path. The
    /// caller must still find the session under this merchant before trusting the credential.
    func authenticateSessionUpdate(
        _ request: Request,
        pathMerchantId: String,
        sessionId: String
    ) throws(GatewayError)
        -> (Merchant, SessionCredential)
    {
        if case let (user, password)? = Self.basicCredentials(request), password == sessionId,
            SessionIdentifiers.isWellFormed(sessionId), user == "merchant.\(pathMerchantId)",
            let merchant = merchants[pathMerchantId]
        {
            return (merchant, .sessionId)
        }
        return (try authenticate(request, pathMerchantId: pathMerchantId), .apiPassword)
    }
}
