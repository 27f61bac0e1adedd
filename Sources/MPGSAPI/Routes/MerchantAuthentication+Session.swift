import GatewayCore
import GatewayHTTP
import Hummingbird

extension MerchantAuthentication {
    /// How an Update Session request was authenticated.
    enum SessionCredential: Equatable {
        case apiPassword
        /// `merchant.<ID>` with the session id as the password, as the mobile SDKs send from
        /// API version 50 on: `Basic` (Android) or the Base64 alone (iOS, since 2019). It opens
        /// the session it names and nothing else: every other route checks API passwords only,
        /// so there it is just a wrong password.
        case sessionId
        /// No `Authorization` at all, below API version 50: the session id in the path is the
        /// secret, and the body must say `"apiOperation":"UPDATE_PAYER_DATA"`, as the SDKs send
        /// it for those versions. Limited exactly as ``sessionId``.
        case sessionIdInPath

        /// The payer's device rather than the merchant.
        var isPayer: Bool { self != .apiPassword }
    }

    /// The API version below which the mobile SDKs authenticate Update Session by the session
    /// id in the path and `apiOperation` alone.
    static let firstVersionWithSessionAuthorization = 50

    /// The merchant's API password, or the session credential for the session in the path. The
    /// caller must still find the session under this merchant before trusting the credential.
    func authenticateSessionUpdate(
        _ request: Request,
        _ context: GatewayRequestContext,
        pathMerchantId: String,
        sessionId: String,
        version: Int
    ) throws(GatewayError)
        -> (Merchant, SessionCredential)
    {
        if context.clientCertificate == nil, SessionIdentifiers.isWellFormed(sessionId), let merchant = merchants[pathMerchantId] {
            if request.headers[.authorization] == nil {
                if version < Self.firstVersionWithSessionAuthorization { return (merchant, .sessionIdInPath) }
                throw GatewayError.invalidCredentials
            }
            let credentials = Self.basicCredentials(request) ?? Self.schemelessCredentials(request)
            if case let (user, password)? = credentials, password == sessionId, user == "merchant.\(pathMerchantId)" {
                return (merchant, .sessionId)
            }
        }
        return (try authenticate(request, context, pathMerchantId: pathMerchantId), .apiPassword)
    }
}

extension MerchantAuthentication {
    /// The session credential (`merchant.<ID>` and the session id as the password) on a
    /// transaction path: what threeDS.js sends from the payer's browser for
    /// INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER. The caller allows it for those operations
    /// on that session only; nil when the request carries anything else.
    func payerSessionCaller(
        _ request: Request,
        _ context: GatewayRequestContext,
        pathMerchantId: String
    ) -> (merchant: Merchant, sessionId: String)? {
        guard context.clientCertificate == nil, let merchant = merchants[pathMerchantId],
            case let (user, password)? = Self.basicCredentials(request),
            user == "merchant.\(pathMerchantId)", SessionIdentifiers.isWellFormed(password)
        else { return nil }
        return (merchant, password)
    }
}
