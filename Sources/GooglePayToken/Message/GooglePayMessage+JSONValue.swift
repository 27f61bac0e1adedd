import Foundation
import WireJSON

extension GooglePayMessage {
    /// The message as Google writes it, unknown keys included, the PAN masked (first six, last
    /// four) unless `unmasked`: what `gateway decrypt` prints.
    package func jsonValue(unmasked: Bool = false) -> JSONValue {
        var object = additionalFields
        object["messageId"] = .string(messageId)
        object["messageExpiration"] = .string(String(Int64((messageExpiration.timeIntervalSince1970 * 1000).rounded())))
        object["paymentMethod"] = .string(paymentMethod)
        if let gatewayMerchantId { object["gatewayMerchantId"] = .string(gatewayMerchantId) }
        let details = paymentMethodDetails
        var fields = details.additionalFields
        fields["authMethod"] = .string(details.authMethod.rawValue)
        fields["pan"] = .string(unmasked ? details.pan : GooglePayCardNumberMask.mask(details.pan))
        fields["expirationMonth"] = .integer(Int64(details.expirationMonth))
        fields["expirationYear"] = .integer(Int64(details.expirationYear))
        if let cryptogram = details.cryptogram { fields["cryptogram"] = .string(cryptogram) }
        if let eci = details.eciIndicator { fields["eciIndicator"] = .string(eci) }
        object["paymentMethodDetails"] = .object(fields)
        return .object(object)
    }
}
