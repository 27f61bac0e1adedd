import Foundation
import WireJSON

extension PaymentData {
    /// Reads the decrypted plaintext: strict on the keys Apple documents, tolerant of new ones.
    public init<Bytes: Collection<UInt8>>(jsonBytes: Bytes) throws(ApplePayTokenError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: jsonBytes)
        } catch {
            if let key = error.duplicateKey {
                throw ApplePayTokenError(.malformedPaymentData, "the decrypted payment data repeats the key \"\(key.prefix(40))\"")
            }
            throw ApplePayTokenError(.malformedPaymentData, "the decrypted payment data is not JSON")
        }
        guard case .object(var object) = value else {
            throw ApplePayTokenError(.malformedPaymentData, "the decrypted payment data is not a JSON object")
        }
        var reader = FieldReader(object: object, prefix: "")
        // A decrypted payload is still input: only Apple signs in production, but a sandbox or a
        // compromised signer must not get a malformed card number or amount past this point.
        applicationPrimaryAccountNumber = try reader.string("applicationPrimaryAccountNumber") { text in
            (12...19).contains(text.utf8.count) && text.utf8.allSatisfy(\.isASCIIDigit) ? nil : "must be 12 to 19 digits"
        }
        applicationExpirationDate = try reader.string("applicationExpirationDate") { text in
            isExpirationDate(text) ? nil : "must be a date as YYMMDD"
        }
        currencyCode = try reader.string("currencyCode") { text in
            text.utf8.count == 3 && text.utf8.allSatisfy(\.isASCIIDigit) ? nil : "must be an ISO 4217 numeric code of 3 digits"
        }
        transactionAmount = try reader.integer("transactionAmount")
        cardholderName = try reader.optionalString("cardholderName")
        if let name = cardholderName, let problem = PaymentDataBounds.cardholderNameProblem(name) {
            throw ApplePayTokenError(.malformedPaymentData, "cardholderName \(problem)", field: "cardholderName")
        }
        deviceManufacturerIdentifier = try reader.optionalString("deviceManufacturerIdentifier")
        paymentDataType = PaymentDataType(rawValue: try reader.string("paymentDataType"))
        let detailsObject = try reader.object("paymentData")
        var detailsReader = FieldReader(object: detailsObject, prefix: "paymentData.")
        switch paymentDataType {
        case .threeDSecure:
            details = .threeDSecure(
                ThreeDSecure(
                    onlinePaymentCryptogram: try detailsReader.string("onlinePaymentCryptogram") {
                        PaymentDataBounds.base64Problem($0, maxBytes: PaymentDataBounds.maxCryptogramBytes)
                    },
                    eciIndicator: try detailsReader.optionalString("eciIndicator").map { (eci) throws(ApplePayTokenError) in
                        guard PaymentDataBounds.isECI(eci) else {
                            throw ApplePayTokenError(
                                .malformedPaymentData,
                                "paymentData.eciIndicator must be one or two digits",
                                field: "paymentData.eciIndicator"
                            )
                        }
                        return eci
                    },
                    additionalFields: detailsReader.remaining
                )
            )
        case .emv:
            details = .emv(
                EMV(
                    emvData: try detailsReader.string("emvData") {
                        PaymentDataBounds.base64Problem($0, maxBytes: PaymentDataBounds.maxEMVDataBytes)
                    },
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
    package func jsonValue(unmasked: Bool = false) -> JSONValue {
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

/// YYMMDD with a real month and a day that month can have (Apple sends the month's last day).
private func isExpirationDate(_ text: String) -> Bool {
    let digits = Array(text.utf8)
    guard digits.count == 6, digits.allSatisfy(\.isASCIIDigit) else { return false }
    let number = digits.map { Int($0 - UInt8(ascii: "0")) }
    let year = 2000 + number[0] * 10 + number[1]
    let month = number[2] * 10 + number[3]
    let day = number[4] * 10 + number[5]
    guard (1...12).contains(month), day >= 1 else { return false }
    let isLeapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let lastDay = [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return day <= lastDay
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

    /// A required string; `problem` returns what is wrong with its text, or nil when it is right.
    mutating func string(_ key: String, problem: (String) -> String? = { _ in nil }) throws(ApplePayTokenError) -> String {
        guard let value = try optionalString(key) else { throw failure(key, "is missing") }
        if let problem = problem(value) { throw failure(key, problem) }
        return value
    }

    mutating func optionalString(_ key: String) throws(ApplePayTokenError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value else { throw failure(key, "must be a string") }
        return text
    }

    mutating func integer(_ key: String) throws(ApplePayTokenError) -> Int64 {
        // An integer as JSON writes it: 5656, never 5656.0 or "5656" (Apple's format is a number
        // of minor units).
        switch take(key) {
        case .integer(let value) where value >= 0: return value
        case nil: throw failure(key, "is missing")
        default: throw failure(key, "must be a non-negative integer")
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
