import WireJSON

/// The decrypted payment data, typed after Apple's payment data tables.
///
/// Every key Apple documents has a property; keys it does not document are kept in
/// ``additionalFields`` so nothing the device sent is lost. `description` masks the PAN and
/// hides the cryptogram, so logging a value is safe.
public struct PaymentData: Sendable, Hashable {
    /// Device-specific account number (DPAN).
    public var applicationPrimaryAccountNumber: String
    /// Expiry as YYMMDD.
    public var applicationExpirationDate: String
    /// ISO 4217 numeric code, e.g. "840".
    public var currencyCode: String
    /// Amount in minor units of `currencyCode`.
    public var transactionAmount: Int64
    public var cardholderName: String?
    public var deviceManufacturerIdentifier: String?
    public var paymentDataType: PaymentDataType
    public var details: Details
    /// Multi-token requests: one cryptogram per submerchant.
    public var authenticationResponses: [AuthenticationResponse]?
    /// Merchant token requests: the network's token identifier.
    public var merchantTokenIdentifier: String?
    /// Merchant token requests: card art, last four digits, expiry.
    package var merchantTokenMetadata: JSONValue?
    /// Keys Apple does not document (yet), kept verbatim.
    package var additionalFields: [String: JSONValue]

    public struct PaymentDataType: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let threeDSecure = PaymentDataType(rawValue: "3DSecure")
        public static let emv = PaymentDataType(rawValue: "EMV")
    }

    /// The `paymentData` dictionary, by `paymentDataType`.
    public enum Details: Sendable, Hashable {
        case threeDSecure(ThreeDSecure)
        case emv(EMV)
    }

    public struct ThreeDSecure: Sendable, Hashable {
        /// Base64 online payment cryptogram.
        public var onlinePaymentCryptogram: String
        /// Must be passed on to the processor when present.
        public var eciIndicator: String?
        package var additionalFields: [String: JSONValue]
    }

    public struct EMV: Sendable, Hashable {
        /// Base64 EMV payment structure from the Secure Element.
        public var emvData: String
        /// Hex encrypted PIN (RSA_v1 only).
        public var encryptedPINData: String?
        package var additionalFields: [String: JSONValue]
    }

    public struct AuthenticationResponse: Sendable, Hashable {
        public var merchantIdentifier: String
        public var authenticationData: String
        public var transactionAmount: String
        package var additionalFields: [String: JSONValue]
    }

    /// The cryptogram, whichever kind of payment data carries it.
    public var onlinePaymentCryptogram: String? {
        if case .threeDSecure(let secure) = details { secure.onlinePaymentCryptogram } else { nil }
    }

    /// The ECI indicator, when the network supplied one.
    public var eciIndicator: String? {
        if case .threeDSecure(let secure) = details { secure.eciIndicator } else { nil }
    }
}
