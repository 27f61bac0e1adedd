import ApplePayToken
import Foundation
import GatewayCore
import GooglePaySandbox
import GooglePayToken

/// What an integrator asks a sandbox Google Pay token to carry, as text from a JSON body or
/// `gateway mint-token --wallet google-pay`'s flags. All
/// optional: a PAN_ONLY test Visa card, valid for an hour, for the merchant. Google's message has
/// no amount: the token pays any amount.
package struct GooglePaySandboxOptions: Sendable {
    package var authMethod: String?
    package var pan: String?
    package var expirationMonth: String?
    package var expirationYear: String?
    package var cryptogram: String?
    package var eciIndicator: String?
    package var gatewayMerchantId: String?
    package var messageId: String?
    /// ISO 8601; default an hour from now. A past one makes a token the gateway must refuse.
    package var messageExpiration: String?

    package init() {}

    static var fields: [(name: String, value: WritableKeyPath<GooglePaySandboxOptions, String?>)] {
        [
            ("authMethod", \.authMethod), ("pan", \.pan), ("expirationMonth", \.expirationMonth),
            ("expirationYear", \.expirationYear), ("cryptogram", \.cryptogram), ("eciIndicator", \.eciIndicator),
            ("gatewayMerchantId", \.gatewayMerchantId), ("messageId", \.messageId), ("messageExpiration", \.messageExpiration),
        ]
    }

    /// The message these options describe for `merchantId`, or the first field that is wrong.
    package func mintRequest(merchantId: String, now: Date) throws(GatewayError) -> GooglePayMintRequest {
        var request = GooglePayMintRequest()
        if let authMethod {
            guard let method = GooglePayMessage.AuthMethod(rawValue: authMethod) else {
                throw GatewayError.invalidValue("authMethod", authMethod, "Use PAN_ONLY or CRYPTOGRAM_3DS")
            }
            request.authMethod = method
        } else if cryptogram != nil {
            request.authMethod = .cryptogram3DS
        }
        if let pan {
            guard (12...19).contains(pan.count), pan.allSatisfy(\.isASCIIDigit) else {
                throw GatewayError.invalidValue("pan", CardNumberMask.mask(pan), "Use 12 to 19 digits")
            }
            request.pan = pan
        }
        if let expirationMonth {
            guard let month = Int(expirationMonth), (1...12).contains(month) else {
                throw GatewayError.invalidValue("expirationMonth", expirationMonth, "Use 1 to 12")
            }
            request.expirationMonth = month
        }
        if let expirationYear {
            guard expirationYear.count == 4, let year = Int(expirationYear) else {
                throw GatewayError.invalidValue("expirationYear", expirationYear, "Use four digits")
            }
            request.expirationYear = year
        }
        switch request.authMethod {
        case .cryptogram3DS:
            let cryptogram = cryptogram ?? Data((0..<20).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            guard Data(base64Encoded: cryptogram).map({ !$0.isEmpty }) == true else {
                throw GatewayError.invalidValue("cryptogram", "***", "Use base64")
            }
            request.cryptogram = cryptogram
            if let eci = eciIndicator, !((1...2).contains(eci.count) && eci.allSatisfy(\.isASCIIDigit)) {
                throw GatewayError.invalidValue("eciIndicator", eci, "Use one or two digits")
            }
            request.eciIndicator = eciIndicator
        case .panOnly:
            if cryptogram != nil { throw GatewayError.invalid("cryptogram", "A cryptogram is for CRYPTOGRAM_3DS, not PAN_ONLY") }
            if eciIndicator != nil { throw GatewayError.invalid("eciIndicator", "An ECI is for CRYPTOGRAM_3DS, not PAN_ONLY") }
        }
        request.gatewayMerchantId = gatewayMerchantId ?? merchantId
        if let messageId {
            guard (1...250).contains(messageId.count) else { throw GatewayError.invalidValue("messageId", messageId, "Use 1 to 250 characters") }
            request.messageId = messageId
        }
        request.messageExpiration = now.addingTimeInterval(3600)
        if let messageExpiration {
            guard let date = ISO8601DateFormatter().date(from: messageExpiration) else {
                throw GatewayError.invalidValue("messageExpiration", messageExpiration, "Use ISO 8601, e.g. 2030-01-31T12:00:00Z")
            }
            request.messageExpiration = date
        }
        return request
    }
}
