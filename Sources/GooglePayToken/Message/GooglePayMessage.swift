import Foundation
import WireJSON

/// The decrypted (or, for ECv2SigningOnly, signed) message, typed after Google's tables.
///
/// Keys Google documents have a property; keys it does not are kept in ``additionalFields``.
/// `description` masks the PAN and hides the cryptogram, so logging a value is safe.
public struct GooglePayMessage: Sendable, Hashable {
    /// Google's id for the message: the key for replay protection.
    public var messageId: String
    /// When the message stops being valid; a message past it is refused.
    public var messageExpiration: Date
    /// The payment credential's type; `CARD` is the only one there is.
    public var paymentMethod: String
    /// The merchant id the integrator set in `tokenizationSpecification` (gateway tokenization).
    public var gatewayMerchantId: String?
    public var paymentMethodDetails: PaymentMethodDetails
    /// Keys Google does not document (yet), kept verbatim.
    package var additionalFields: [String: JSONValue]

    /// How the card was authenticated, which decides what the details carry.
    public enum AuthMethod: String, Sendable, Hashable {
        /// A card on file with Google: a PAN, no cryptogram (3-D Secure may still be asked for).
        case panOnly = "PAN_ONLY"
        /// A device token: a device PAN with a cryptogram.
        case cryptogram3DS = "CRYPTOGRAM_3DS"
    }

    public struct PaymentMethodDetails: Sendable, Hashable {
        public var authMethod: AuthMethod
        /// The account number charged (for CRYPTOGRAM_3DS a device PAN); ASCII digits.
        public var pan: String
        /// 1 to 12.
        public var expirationMonth: Int
        /// Four digits.
        public var expirationYear: Int
        /// CRYPTOGRAM_3DS only: the base64 online payment cryptogram.
        public var cryptogram: String?
        /// CRYPTOGRAM_3DS only, and not for every network: pass it on when present.
        public var eciIndicator: String?
        /// Keys Google does not document here (`assuranceDetails`...), kept verbatim.
        package var additionalFields: [String: JSONValue]
    }
}

extension GooglePayMessage: CustomStringConvertible {
    public var description: String {
        let details = paymentMethodDetails
        return "GooglePayMessage(id: \(messageId.prefix(24))…, method: \(paymentMethod), auth: \(details.authMethod.rawValue), "
            + "pan: \(GooglePayCardNumberMask.mask(details.pan)), expiry: \(details.expirationMonth)/\(details.expirationYear), "
            + "cryptogram: \(details.cryptogram == nil ? "none" : "<redacted>"))"
    }
}

/// The first six and last four digits, as PCI DSS allows.
enum GooglePayCardNumberMask {
    static func mask(_ pan: String) -> String {
        let digits = Array(pan)
        guard digits.count > 10 else { return String(repeating: "x", count: digits.count) }
        return String(digits.prefix(6)) + String(repeating: "x", count: digits.count - 10) + String(digits.suffix(4))
    }
}
