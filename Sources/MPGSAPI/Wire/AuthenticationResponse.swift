import Foundation
import GatewayCore
import WireJSON

/// The MPGS response of an authentication transaction (type AUTHENTICATION): what
/// INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER answer, and what Retrieve Transaction and
/// Retrieve Order show of it. Rendered from the stored authentication each time.
enum AuthenticationResponse {
    /// `acsURL` is the sandbox ACS page's absolute address, for the redirect of a pending challenge.
    static func json(_ authentication: PayerAuthentication, acsURL: String?) -> JSONValue {
        let amount = authentication.amount
        let money = JSONValue.double(amount.majorUnits)
        let status = JSONValue.string(authentication.status.rawValue)
        let created = JSONValue.string(Timestamp.string(authentication.createdAt))
        let updated = JSONValue.string(Timestamp.string(authentication.updatedAt))
        let zero = JSONValue.double(Amount(minorUnits: 0, currency: amount.currency).majorUnits)

        var details: [String: JSONValue] = [
            "version": .string(authentication.authenticationVersion), "channel": .string(authentication.channel),
            "purpose": .string(authentication.purpose), "amount": money,
        ]
        if let accept = authentication.acceptVersions { details["acceptVersions"] = .string(accept) }
        if let url = authentication.redirectResponseUrl {
            details["redirectResponseUrl"] = .string(url)
            details["payerInteraction"] = .string(authentication.scenario == .challenge ? "REQUIRED" : "NOT_REQUIRED")
        }
        if let threeDS = authentication.threeDS {
            var version1: [String: JSONValue] = ["transactionId": .string(threeDS.transactionId)]
            if let eci = threeDS.acsEci { version1["acsEci"] = .string(eci) }
            if let token = threeDS.authenticationToken { version1["authenticationToken"] = .string(token) }
            var version2: [String: JSONValue] = [
                "dsTransactionId": .string(threeDS.dsTransactionId), "protocolVersion": .string(threeDS.protocolVersion),
                "methodSupported": .string("NOT_SUPPORTED"),
            ]
            if let transactionStatus = threeDS.transactionStatus { version2["transactionStatus"] = .string(transactionStatus.rawValue) }
            details["3ds"] = .object(version1)
            details["3ds2"] = .object(version2)
        } else if authentication.offeredVersion != nil {
            details["3ds2"] = .object(["methodSupported": .string("NOT_SUPPORTED")])
        }
        if authentication.status == .pending, let challengeId = authentication.challengeId, let acsURL {
            details["redirect"] = .object([
                "html": .string(ACSPage.redirectHTML(acsURL: acsURL, challengeId: challengeId)),
                "customizedHtml": .object(["3ds2": .object(["acsUrl": .string(acsURL), "cReq": .string(challengeId)])]),
                "domainName": .string(URL(string: acsURL)?.host ?? ""),
            ])
        }

        let (result, gatewayCode) = outcome(authentication.status)
        return .object([
            "authentication": .object(details),
            "merchant": .string(authentication.merchantId),
            "order": .object([
                "id": .string(authentication.orderId), "amount": money, "currency": .string(amount.currency.code),
                "status": .string(authentication.status.orderStatus), "authenticationStatus": status,
                "creationTime": created, "lastUpdatedTime": updated, "totalAuthorizedAmount": zero,
                "totalCapturedAmount": zero, "totalRefundedAmount": zero,
            ]),
            "response": .object([
                "gatewayCode": .string(gatewayCode),
                "gatewayRecommendation": .string(authentication.status.proceed ? "PROCEED" : "DO_NOT_PROCEED"),
            ]),
            "result": .string(result),
            "sourceOfFunds": authentication.card.json,
            "timeOfRecord": created,
            "timeOfLastUpdate": updated,
            "transaction": .object([
                "id": .string(authentication.transactionId), "type": .string("AUTHENTICATION"), "amount": money,
                "currency": .string(amount.currency.code), "authenticationStatus": status, "source": .string("INTERNET"),
            ]),
            "version": .string(authentication.version.description),
            "gatewayEntryPoint": .string("WEB_SERVICES_API"),
        ])
    }

    /// `result` and `response.gatewayCode` for each state.
    static func outcome(_ status: AuthenticationStatus) -> (result: String, gatewayCode: String) {
        switch status {
        case .available: ("SUCCESS", "AUTHENTICATION_IN_PROGRESS")
        case .pending: ("PENDING", "AUTHENTICATION_IN_PROGRESS")
        case .successful, .notSupported: ("SUCCESS", "APPROVED")
        case .failed: ("FAILURE", "DECLINED")
        case .unavailable: ("FAILURE", "UNSPECIFIED_FAILURE")
        }
    }

    /// The `authentication` a payment's response and its order show (never the token).
    static func paymentJSON(_ authentication: PaymentAuthentication) -> JSONValue {
        var details: [String: JSONValue] = [
            "transactionId": .string(authentication.transactionId), "version": .string(authentication.version),
        ]
        var version1: [String: JSONValue] = [:]
        if let eci = authentication.acsEci { version1["acsEci"] = .string(eci) }
        if let id = authentication.threeDSTransactionId { version1["transactionId"] = .string(id) }
        var version2: [String: JSONValue] = [:]
        if let id = authentication.dsTransactionId { version2["dsTransactionId"] = .string(id) }
        if let protocolVersion = authentication.protocolVersion { version2["protocolVersion"] = .string(protocolVersion) }
        if let status = authentication.transactionStatus { version2["transactionStatus"] = .string(status.rawValue) }
        if !version1.isEmpty { details["3ds"] = .object(version1) }
        if !version2.isEmpty { details["3ds2"] = .object(version2) }
        return .object(details)
    }
}
