import GatewayCore
import Hummingbird

/// The core's 3-D Secure rejections as MPGS error bodies, each naming the field at fault.
extension AuthenticationRejection {
    var gatewayError: GatewayError {
        switch self {
        case .notFound(let transactionId):
            .invalidValue("authentication.transactionId", transactionId, "No authentication with this transaction ID exists on this order")
        case .notSuccessful(let transactionId, let status):
            .invalidValue(
                "authentication.transactionId",
                transactionId,
                "The payer was not authenticated (transaction.authenticationStatus \(status.rawValue))"
            )
        case .notInitiated(let transactionId):
            .invalidValue("transaction.id", transactionId, "Initiate Authentication has not been performed for this transaction ID")
        case .alreadyAuthenticated(let transactionId, let status):
            .invalidValue(
                "transaction.id",
                transactionId,
                "The authentication is already \(status.rawValue); authenticate again under a new transaction ID"
            )
        case .noAcceptedVersion(let acceptVersions):
            .invalidValue(
                "authentication.acceptVersions",
                acceptVersions,
                "Initiate Authentication found no accepted version available (this gateway offers 3DS2 only): initiate again accepting 3DS2"
            )
        case .currencyMismatch(let currency, let initiated):
            .invalidValue("order.currency", currency.code, "Initiate Authentication was in \(initiated.code)")
        case .amountNotAuthenticated(let transactionId, let payment, let authenticated):
            .invalidValue(
                "authentication.transactionId",
                transactionId,
                "The payer was authenticated for \(authenticated.currency.code) \(authenticated.text), not for "
                    + "\(payment.currency.code) \(payment.text): authenticate again for this amount"
            )
        case .challengeNotPending:
            .notFound("No pending 3-D Secure challenge has this id")
        case .changed:
            .lockFailure
        case .notEnabled:
            GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation: "3-D Secure is simulated in sandbox mode only: this gateway reaches no directory server",
                field: "apiOperation",
                validationType: .unsupported
            )
        }
    }
}

/// One case per `AuthenticationRejection` case, for the error reference: the switch in
/// `init(_:)` makes a new rule fail to compile until it is described below.
enum AuthenticationRejectionKind: CaseIterable {
    case notFound, notSuccessful, notInitiated, alreadyAuthenticated, noAcceptedVersion, currencyMismatch, challengeNotPending, changed
    case amountNotAuthenticated, notEnabled

    init(_ rejection: AuthenticationRejection) {
        switch rejection {
        case .notFound: self = .notFound
        case .notSuccessful: self = .notSuccessful
        case .notInitiated: self = .notInitiated
        case .alreadyAuthenticated: self = .alreadyAuthenticated
        case .noAcceptedVersion: self = .noAcceptedVersion
        case .currencyMismatch: self = .currencyMismatch
        case .amountNotAuthenticated: self = .amountNotAuthenticated
        case .challengeNotPending: self = .challengeNotPending
        case .changed: self = .changed
        case .notEnabled: self = .notEnabled
        }
    }

    var entry: ErrorCatalogue.Entry {
        let (example, name, when, whatToDo) = described
        return ErrorCatalogue.Entry(name: name, error: example.gatewayError, when: when, whatToDo: whatToDo)
    }

    private var described: (example: AuthenticationRejection, name: String, when: String, whatToDo: String) {
        switch self {
        case .notFound:
            (
                .notFound(transactionId: "auth-1"), "Authentication not found",
                "An AUTHORIZE or PAY names an `authentication.transactionId` that is not an authentication on this order "
                    + "(another order's or merchant's, or none).",
                "Pay on the order the authentication was made on, naming its transaction id."
            )
        case .notSuccessful:
            (
                .notSuccessful(transactionId: "auth-1", status: .failed), "Authentication not successful",
                "An AUTHORIZE or PAY names an authentication that failed, is still pending (challenge not answered) or "
                    + "was unavailable.",
                "Do not proceed with the payment; authenticate again under a new transaction id, or ask for another card."
            )
        case .notInitiated:
            (
                .notInitiated(transactionId: "auth-1"), "Authentication not initiated",
                "AUTHENTICATE_PAYER on a transaction id INITIATE_AUTHENTICATION was not sent for on this order.",
                "Send INITIATE_AUTHENTICATION first, with the same order and transaction ids."
            )
        case .alreadyAuthenticated:
            (
                .alreadyAuthenticated(transactionId: "auth-1", status: .successful), "Authentication already done",
                "INITIATE_AUTHENTICATION or AUTHENTICATE_PAYER on an authentication that AUTHENTICATE_PAYER has already moved on.",
                "Pay with it, or start a new authentication under a new transaction id."
            )
        case .noAcceptedVersion:
            (
                .noAcceptedVersion(acceptVersions: "3DS1"), "No accepted 3-D Secure version",
                "AUTHENTICATE_PAYER on an authentication INITIATE_AUTHENTICATION answered with version NONE because its "
                    + "`authentication.acceptVersions` excluded 3DS2, the only version the sandbox simulates.",
                "Initiate again accepting 3DS2 (or without `acceptVersions`), or pay unauthenticated as the initiation's PROCEED allows."
            )
        case .currencyMismatch:
            (
                .currencyMismatch(Currency(code: "EUR")!, initiated: Currency(code: "USD")!), "Authentication currency mismatch",
                "AUTHENTICATE_PAYER's `order.currency` is not the one INITIATE_AUTHENTICATION was sent with.",
                "Authenticate in the order's currency, or initiate again in the new one."
            )
        case .amountNotAuthenticated:
            (
                .amountNotAuthenticated(
                    transactionId: "auth-1",
                    payment: Amount(minorUnits: 999_900, currency: Currency(code: "USD")!),
                    authenticated: Amount(minorUnits: 100, currency: Currency(code: "USD")!)
                ),
                "Amount not authenticated",
                "An AUTHORIZE or PAY names an authentication made in another currency, or for less than the payment's "
                    + "amount. A lower amount (a partial payment of what the payer approved) is accepted.",
                "Authenticate the payer again for the amount and currency you are charging, under a new transaction id."
            )
        case .challengeNotPending:
            (
                .challengeNotPending, "Challenge not pending",
                "The sandbox ACS page was posted a challenge id that is unknown or already answered (an HTML page says so).",
                "Start again from AUTHENTICATE_PAYER; a challenge is answered once."
            )
        case .changed:
            (.changed, "Lock failure", "Two requests changed the same authentication at once.", "Retry the request.")
        case .notEnabled:
            (
                .notEnabled, "3-D Secure not enabled",
                "INITIATE_AUTHENTICATION or AUTHENTICATE_PAYER in production mode: the gateway simulates 3-D Secure only in sandbox mode.",
                "Pay without `authentication.transactionId` in production, or use a sandbox gateway."
            )
        }
    }
}

extension AuthenticationRejection: HTTPResponseError {
    package var status: HTTPResponse.Status { gatewayError.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try gatewayError.response(from: request, context: context)
    }
}
