import Foundation

extension PaymentData {
    /// Reads the decrypted plaintext: strict on the keys Apple documents, tolerant of new ones.
    public init<Bytes: Collection<UInt8>>(jsonBytes: Bytes) throws(ApplePayTokenError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(jsonBytes)
        } catch {
            throw ApplePayTokenError(.malformedPaymentData, "the decrypted payment data is not JSON")
        }
        guard case .object(var object) = value else {
            throw ApplePayTokenError(.malformedPaymentData, "the decrypted payment data is not a JSON object")
        }
        var reader = FieldReader(object: object, prefix: "")
        applicationPrimaryAccountNumber = try reader.string("applicationPrimaryAccountNumber")
        applicationExpirationDate = try reader.string("applicationExpirationDate")
        currencyCode = try reader.string("currencyCode")
        transactionAmount = try reader.integer("transactionAmount")
        cardholderName = try reader.optionalString("cardholderName")
        deviceManufacturerIdentifier = try reader.optionalString("deviceManufacturerIdentifier")
        paymentDataType = PaymentDataType(rawValue: try reader.string("paymentDataType"))
        let detailsObject = try reader.object("paymentData")
        var detailsReader = FieldReader(object: detailsObject, prefix: "paymentData.")
        switch paymentDataType {
        case .threeDSecure:
            details = .threeDSecure(
                ThreeDSecure(
                    onlinePaymentCryptogram: try detailsReader.string("onlinePaymentCryptogram"),
                    eciIndicator: try detailsReader.optionalString("eciIndicator"),
                    additionalFields: detailsReader.remaining
                )
            )
        case .emv:
            details = .emv(
                EMV(
                    emvData: try detailsReader.string("emvData"),
                    encryptedPINData: try detailsReader.optionalString("encryptedPINData"),
                    additionalFields: detailsReader.remaining
                )
            )
        default:
            throw ApplePayTokenError(
                .malformedPaymentData,
                "paymentDataType must be \"3DSecure\" or \"EMV\"",
                field: "paymentDataType"
            )
        }
        authenticationResponses = try reader.optionalArray("authenticationResponses").map {
            items throws(ApplePayTokenError) in
            var responses: [AuthenticationResponse] = []
            for (index, item) in items.enumerated() {
                let prefix = "authenticationResponses[\(index)]."
                guard case .object(let entry) = item else {
                    throw ApplePayTokenError(
                        .malformedPaymentData,
                        "\(prefix.dropLast()) must be an object",
                        field: String(prefix.dropLast())
                    )
                }
                var entryReader = FieldReader(object: entry, prefix: prefix)
                responses.append(
                    AuthenticationResponse(
                        merchantIdentifier: try entryReader.string("merchantIdentifier"),
                        authenticationData: try entryReader.string("authenticationData"),
                        transactionAmount: try entryReader.numberAsString("transactionAmount"),
                        additionalFields: entryReader.remaining
                    )
                )
            }
            return responses
        }
        merchantTokenIdentifier = try reader.optionalString("merchantTokenIdentifier")
        merchantTokenMetadata = reader.take("merchantTokenMetadata")
        additionalFields = reader.remaining
        object = [:]
    }

    /// The payment data as JSON, with the account number masked to its first six and last four
    /// digits unless `unmasked` is set. The cryptogram is kept: whoever decrypts needs it.
    public func jsonValue(unmasked: Bool = false) -> JSONValue {
        var object = additionalFields
        object["applicationPrimaryAccountNumber"] = .string(
            unmasked ? applicationPrimaryAccountNumber : CardNumberMask.mask(applicationPrimaryAccountNumber)
        )
        object["applicationExpirationDate"] = .string(applicationExpirationDate)
        object["currencyCode"] = .string(currencyCode)
        object["transactionAmount"] = .integer(transactionAmount)
        if let cardholderName { object["cardholderName"] = .string(cardholderName) }
        if let deviceManufacturerIdentifier {
            object["deviceManufacturerIdentifier"] = .string(deviceManufacturerIdentifier)
        }
        object["paymentDataType"] = .string(paymentDataType.rawValue)
        switch details {
        case .threeDSecure(let secure):
            var fields = secure.additionalFields
            fields["onlinePaymentCryptogram"] = .string(secure.onlinePaymentCryptogram)
            if let eci = secure.eciIndicator { fields["eciIndicator"] = .string(eci) }
            object["paymentData"] = .object(fields)
        case .emv(let emv):
            var fields = emv.additionalFields
            fields["emvData"] = .string(emv.emvData)
            if let pin = emv.encryptedPINData { fields["encryptedPINData"] = .string(pin) }
            object["paymentData"] = .object(fields)
        }
        if let authenticationResponses {
            object["authenticationResponses"] = .array(
                authenticationResponses.map { response in
                    var fields = response.additionalFields
                    fields["merchantIdentifier"] = .string(response.merchantIdentifier)
                    fields["authenticationData"] = .string(response.authenticationData)
                    fields["transactionAmount"] = .string(response.transactionAmount)
                    return .object(fields)
                }
            )
        }
        if let merchantTokenIdentifier { object["merchantTokenIdentifier"] = .string(merchantTokenIdentifier) }
        if let merchantTokenMetadata { object["merchantTokenMetadata"] = merchantTokenMetadata }
        return .object(object)
    }
}

extension PaymentData: CustomStringConvertible {
    public var description: String {
        "PaymentData(pan: \(CardNumberMask.mask(applicationPrimaryAccountNumber)), expiry: \(applicationExpirationDate), "
            + "amount: \(transactionAmount) \(currencyCode), type: \(paymentDataType.rawValue), cryptogram: <redacted>)"
    }
}

/// Takes documented keys out of an object one by one; what is left are the unknown keys.
private struct FieldReader {
    var object: [String: JSONValue]
    let prefix: String

    var remaining: [String: JSONValue] { object }

    mutating func take(_ key: String) -> JSONValue? {
        guard let value = object.removeValue(forKey: key), value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String) throws(ApplePayTokenError) -> String {
        guard let value = try optionalString(key) else { throw failure(key, "is missing") }
        return value
    }

    mutating func optionalString(_ key: String) throws(ApplePayTokenError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value else { throw failure(key, "must be a string") }
        return text
    }

    mutating func integer(_ key: String) throws(ApplePayTokenError) -> Int64 {
        switch take(key) {
        case .integer(let value) where value >= 0: return value
        case .double(let value) where value >= 0 && value.rounded() == value && value < 9e15: return Int64(value)
        case nil: throw failure(key, "is missing")
        default: throw failure(key, "must be a non-negative whole number")
        }
    }

    /// Apple documents some amounts as strings; devices have sent numbers. Keep the text.
    mutating func numberAsString(_ key: String) throws(ApplePayTokenError) -> String {
        switch take(key) {
        case .string(let text): return text
        case .integer(let value): return String(value)
        case nil: throw failure(key, "is missing")
        default: throw failure(key, "must be a string or a whole number")
        }
    }

    mutating func object(_ key: String) throws(ApplePayTokenError) -> [String: JSONValue] {
        switch take(key) {
        case .object(let value): return value
        case nil: throw failure(key, "is missing")
        default: throw failure(key, "must be an object")
        }
    }

    mutating func optionalArray(_ key: String) throws(ApplePayTokenError) -> [JSONValue]? {
        switch take(key) {
        case .array(let value): return value
        case nil: return nil
        default: throw failure(key, "must be an array")
        }
    }

    private func failure(_ key: String, _ problem: String) -> ApplePayTokenError {
        ApplePayTokenError(.malformedPaymentData, "\(prefix)\(key) \(problem)", field: prefix + key)
    }
}
