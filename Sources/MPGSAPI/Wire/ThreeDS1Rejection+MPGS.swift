import GatewayCore
import Hummingbird

/// The core's 3-D Secure 1 rejections as MPGS error bodies, each naming the field at fault.
extension ThreeDS1Rejection {
    var gatewayError: GatewayError {
        switch self {
        case .notFound:
            // The reference's own words.
            .invalid("3DSecureId", "No check has been performed for this merchant and 3D Secure Id.")
        case .notSuccessful(let id, let status):
            .invalidValue("3DSecureId", id, "The payer was not authenticated (3DSecure.summaryStatus \(status.rawValue))")
        case .amountNotAuthenticated(let id, let payment, let authenticated):
            .invalidValue(
                "3DSecureId",
                id,
                "The payer was authenticated for \(authenticated.currency.code) \(authenticated.text), not for "
                    + "\(payment.currency.code) \(payment.text): check enrollment again for this amount"
            )
        case .alreadyUsed(let id):
            .invalidValue("3DSecureId", id, "This 3D Secure Id has been used by another order's payment")
        case .idInUse(let id):
            .invalidValue("3DSecureId", id, "This 3D Secure Id has been authenticated already; check enrollment under a new id")
        case .paResNotRecognized(let id):
            .invalidValue(
                "3DSecure.paRes",
                id,
                "The PaRes is not the one the ACS returned for this 3D Secure Id (send it unaltered, after the payer answered)"
            )
        case .paReqNotPending:
            .notFound("No pending 3-D Secure 1 authentication has this PaReq")
        case .retired(let version):
            GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation: "3-D Secure 1 operations end at API version \(Self.lastVersion) (this request is version "
                    + "\(version)): authenticate with INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER",
                field: "apiOperation",
                validationType: .unsupported
            )
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

/// One case per `ThreeDS1Rejection` case, for the error reference: the switch in `init(_:)`
/// makes a new rule fail to compile until it is described below.
enum ThreeDS1RejectionKind: CaseIterable {
    case notFound, notSuccessful, amountNotAuthenticated, alreadyUsed, idInUse, paResNotRecognized, paReqNotPending, retired
    case changed, notEnabled

    init(_ rejection: ThreeDS1Rejection) {
        switch rejection {
        case .notFound: self = .notFound
        case .notSuccessful: self = .notSuccessful
        case .amountNotAuthenticated: self = .amountNotAuthenticated
        case .alreadyUsed: self = .alreadyUsed
        case .idInUse: self = .idInUse
        case .paResNotRecognized: self = .paResNotRecognized
        case .paReqNotPending: self = .paReqNotPending
        case .retired: self = .retired
        case .changed: self = .changed
        case .notEnabled: self = .notEnabled
        }
    }

    var entry: ErrorCatalogue.Entry {
        let (example, name, when, whatToDo) = described
        return ErrorCatalogue.Entry(name: name, error: example.gatewayError, when: when, whatToDo: whatToDo)
    }

    private var described: (example: ThreeDS1Rejection, name: String, when: String, whatToDo: String) {
        let usd = Currency(code: "USD")!
        return switch self {
        case .notFound:
            (
                .notFound(threeDSecureId: "3ds-1"), "3D Secure Id not found",
                "An AUTHORIZE or PAY (top-level `3DSecureId`), PROCESS_ACS_RESULT or Retrieve 3DS names an id this "
                    + "merchant has not sent CHECK_3DS_ENROLLMENT for.",
                "Check enrollment first under that id (PUT .../3DSecureId/{id})."
            )
        case .notSuccessful:
            (
                .notSuccessful(threeDSecureId: "3ds-1", status: .failed), "3-D Secure 1 not successful",
                "A payment names a 3DSecureId whose payer failed authentication, or is still at the ACS (CARD_ENROLLED "
                    + "without PROCESS_ACS_RESULT).",
                "Send PROCESS_ACS_RESULT with the PaRes the ACS posted; after a failure, ask for another card."
            )
        case .amountNotAuthenticated:
            (
                .amountNotAuthenticated(
                    threeDSecureId: "3ds-1",
                    payment: Amount(minorUnits: 999_900, currency: usd),
                    authenticated: Amount(minorUnits: 100, currency: usd)
                ),
                "3-D Secure 1 amount not authenticated",
                "A payment names a 3DSecureId checked in another currency, or for less than the payment's amount.",
                "Check enrollment again for the amount and currency you charge, under a new 3DSecureId."
            )
        case .alreadyUsed:
            (
                .alreadyUsed(threeDSecureId: "3ds-1"), "3D Secure Id used",
                "A payment names a 3DSecureId another order's payment has used (an authentication pays for one order; "
                    + "that order's retries and new attempts may name it again).",
                "Authenticate the payer again under a new 3DSecureId."
            )
        case .idInUse:
            (
                .idInUse(threeDSecureId: "3ds-1"), "3D Secure Id in use",
                "CHECK_3DS_ENROLLMENT again on an id whose payer has answered the ACS, or that a payment used.",
                "Use a new 3DSecureId for a new check."
            )
        case .paResNotRecognized:
            (
                .paResNotRecognized(threeDSecureId: "3ds-1"), "PaRes not recognized",
                "PROCESS_ACS_RESULT before the payer answered the ACS, or with another `3DSecure.paRes` than the ACS "
                    + "posted to the TermUrl for this id.",
                "Send the PaRes field the ACS posted, unaltered, under the same 3DSecureId."
            )
        case .paReqNotPending:
            (
                .paReqNotPending, "PaReq not pending",
                "The sandbox 3-D Secure 1 ACS page was posted a PaReq that is unknown or already answered (an HTML page says so).",
                "Start again from CHECK_3DS_ENROLLMENT; the ACS answers a PaReq once."
            )
        case .retired:
            (
                .retired(version: 100), "3-D Secure 1 not in this version",
                "CHECK_3DS_ENROLLMENT, PROCESS_ACS_RESULT, Retrieve 3DS or a payment's `3DSecureId` at an API version after "
                    + "\(ThreeDS1Rejection.lastVersion), where the reference no longer has them.",
                "Use INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER, or a version up to \(ThreeDS1Rejection.lastVersion)."
            )
        case .changed:
            (.changed, "Lock failure", "Two requests changed the same 3-D Secure 1 authentication at once.", "Retry the request.")
        case .notEnabled:
            (
                .notEnabled, "3-D Secure 1 not enabled",
                "CHECK_3DS_ENROLLMENT or PROCESS_ACS_RESULT in production mode: 3-D Secure is simulated in sandbox mode only.",
                "Pay without `3DSecureId` in production, or use a sandbox gateway."
            )
        }
    }
}

extension ThreeDS1Rejection: HTTPResponseError {
    package var status: HTTPResponse.Status { gatewayError.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try gatewayError.response(from: request, context: context)
    }
}
