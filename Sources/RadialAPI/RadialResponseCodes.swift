import GatewayCore

/// The simulator's outcome in the Radial-style API's codes. `ResponseCode` values, the CVV2 codes
/// and the AVS codes are from Radial's published lists; `AuthorizationResponseCode` is public for
/// approvals only (`AP01`, in Radial's examples): the others, and which list value stands for
/// which simulator outcome, are this gateway's choice (Deploy/docs/radial.md).
struct RadialResponseCodes: Sendable, Equatable {
    /// APPROVED, CSC, DECL or TIMEOUT.
    var responseCode: String
    var authorizationResponseCode: String
    var cvv2ResponseCode: String
    var avsResponseCode: String

    init(_ gatewayCode: GatewayCode, securityCode: SecurityCodeResult?) {
        cvv2ResponseCode =
            switch securityCode {
            case .match: "M"
            case .noMatch: "N"
            // Not processed, or not sent (a wallet payment has no security code).
            case .notProcessed, nil: "P"
            }
        // The simulator checks no address: Radial's "AVS error" code says no verdict was reached.
        avsResponseCode = "E"
        switch gatewayCode {
        case .approved, .approvedAuto, .approvedPendingSettlement, .partiallyApproved:
            // Approved, but a security code that did not match is Radial's CSC response.
            responseCode = securityCode == .noMatch ? "CSC" : "APPROVED"
            authorizationResponseCode = "AP01"
        case .declined, .blocked, .cancelled:
            // A payment the merchant's risk rules blocked, or its payer cancelled at PayPal (issue 64), is a plain decline here.
            responseCode = "DECL"
            authorizationResponseCode = "ND01"
        case .expiredCard:
            responseCode = "DECL"
            authorizationResponseCode = "ND02"
        case .unspecifiedFailure:
            responseCode = "DECL"
            authorizationResponseCode = "ND03"
        case .systemError, .acquirerSystemError:
            responseCode = "DECL"
            authorizationResponseCode = "ND04"
        case .timedOut:
            responseCode = "TIMEOUT"
            authorizationResponseCode = "TO01"
        case .unknown, .pending, .submitted:
            // The outcome is not known: handled as a processor timeout.
            responseCode = "TIMEOUT"
            authorizationResponseCode = "TO02"
        }
    }

    /// `TenderType` from the card's brand (VC as in Radial's examples; the others this gateway's choice).
    static func tenderType(brand: String) -> String {
        switch brand {
        case "VISA": "VC"
        case "MASTERCARD", "MAESTRO": "MC"
        case "AMEX": "AM"
        case "DISCOVER": "DC"
        case "JCB": "JC"
        case "DINERS_CLUB": "DI"
        case "UNIONPAY": "UP"
        default: "UN"
        }
    }
}
