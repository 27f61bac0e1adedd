import GatewayCore
import WireJSON

/// The MPGS responses of the `3DSecureId` resource (CHECK_3DS_ENROLLMENT, PROCESS_ACS_RESULT,
/// Retrieve 3DS), rendered from the stored authentication each time, and the `3DSecure` group a
/// payment that named a `3DSecureId` shows.
enum ThreeDS1Response {
    /// `acsURL` is the sandbox ACS page's absolute address, for an enrolled card's redirect.
    static func json(_ authentication: ThreeDS1Authentication, acsURL: String) -> JSONValue {
        var secure: [String: JSONValue] = [
            "summaryStatus": .string(authentication.status.rawValue),
            "veResEnrolled": .string(authentication.veResEnrolled.rawValue), "xid": .string(authentication.xid),
            "enrollmentStatus": .string(enrollmentStatus(authentication.veResEnrolled)),
        ]
        if let status = authentication.paResStatus, authentication.status != .cardEnrolled {
            secure["paResStatus"] = .string(status.rawValue)
        }
        if let eci = authentication.acsEci { secure["acsEci"] = .string(eci) }
        if let token = authentication.authenticationToken { secure["authenticationToken"] = .string(token) }
        // What the page generation mode asks for (the reference: the information the selected
        // option needs): the ACS address and PaReq, or the whole self-submitting form.
        if authentication.status == .cardEnrolled, let paReq = authentication.paReq {
            let redirect: JSONValue =
                switch authentication.pageGenerationMode {
                case .customized: .object(["customized": .object(["acsUrl": .string(acsURL), "paReq": .string(paReq)])])
                case .simple:
                    .object([
                        "simple": .object([
                            "htmlBodyContent": .string(
                                ACSPage.threeDS1RedirectHTML(
                                    acsURL: acsURL,
                                    paReq: paReq,
                                    termURL: authentication.responseUrl,
                                    md: authentication.threeDSecureId
                                )
                            )
                        ])
                    ])
                }
            secure["authenticationRedirect"] = redirect
        }
        var response: [String: JSONValue] = ["3DSecure": .object(["gatewayCode": .string(authentication.status.rawValue)])]
        // Versions 47 and later say whether to go on; clients before read the summary status.
        if authentication.version.number >= 47 {
            response["gatewayRecommendation"] = .string(authentication.status.proceed ? "PROCEED" : "DO_NOT_PROCEED")
        }
        return .object([
            "3DSecure": .object(secure),
            "3DSecureId": .string(authentication.threeDSecureId),
            "merchant": .string(authentication.merchantId),
            "response": .object(response),
        ])
    }

    /// `3DSecure.enrollmentStatus` for the directory server's answer.
    static func enrollmentStatus(_ enrolled: ThreeDS1Enrolled) -> String {
        switch enrolled {
        case .yes: "ENROLLED"
        case .no: "NOT_ENROLLED"
        case .unavailable: "ENROLLMENT_STATUS_UNDETERMINED"
        }
    }

    /// A payment's `3DSecureId` and `3DSecure` (never the authentication token).
    static func paymentMembers(_ authentication: PaymentAuthentication) -> [(String, JSONValue)] {
        let enrolled: ThreeDS1Enrolled =
            switch authentication.status {
            case .notSupported: .no
            case .unavailable: .unavailable
            case .available, .pending, .successful, .failed: .yes
            }
        var secure: [String: JSONValue] = [
            "veResEnrolled": .string(enrolled.rawValue), "enrollmentStatus": .string(enrollmentStatus(enrolled)),
            "authenticationStatus": .string(authentication.status.rawValue),
        ]
        if let eci = authentication.acsEci { secure["acsEci"] = .string(eci) }
        if let xid = authentication.threeDSTransactionId { secure["xid"] = .string(xid) }
        if let status = authentication.transactionStatus { secure["paResStatus"] = .string(status.rawValue) }
        return [("3DSecureId", .string(authentication.transactionId)), ("3DSecure", .object(secure))]
    }
}

extension AuthenticationResponse {
    /// What a payment's response shows of the authentication it named: `authentication` for
    /// 3-D Secure 2, `3DSecureId` and `3DSecure` for 3-D Secure 1.
    static func paymentMembers(_ authentication: PaymentAuthentication) -> [(String, JSONValue)] {
        if authentication.version == ThreeDS1Authentication.paymentVersion {
            return ThreeDS1Response.paymentMembers(authentication)
        }
        return [("authentication", paymentJSON(authentication))]
    }
}
