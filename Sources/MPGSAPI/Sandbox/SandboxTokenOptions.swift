import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore

/// What an integrator asks a sandbox token to carry, as text from a JSON body or command-line
/// flags. Only amount and currency are required; everything else has a realistic default.
/// Field names are the JSON names, so errors name what the caller sent.
public struct SandboxTokenOptions: Sendable {
    public var amount: String?
    /// ISO 4217 alphabetic; the token carries the numeric code.
    public var currency: String?
    /// EC_v1 (default) or RSA_v1.
    public var version: String?
    /// 3DSecure (default) or EMV.
    public var paymentDataType: String?
    public var applicationPrimaryAccountNumber: String?
    /// YYMMDD.
    public var applicationExpirationDate: String?
    public var cardholderName: String?
    public var onlinePaymentCryptogram: String?
    public var eciIndicator: String?
    public var emvData: String?
    /// Raw application data as hex; the token's header carries its SHA-256.
    public var applicationData: String?
    /// ISO 8601; default now. An old one makes a token the gateway must reject.
    public var signingTime: String?

    public init() {}

    /// Every option by its JSON name, the form the sandbox endpoint accepts.
    static var fields: [(name: String, value: WritableKeyPath<SandboxTokenOptions, String?>)] {
        [
            ("amount", \.amount), ("currency", \.currency), ("version", \.version),
            ("paymentDataType", \.paymentDataType), ("applicationPrimaryAccountNumber", \.applicationPrimaryAccountNumber),
            ("applicationExpirationDate", \.applicationExpirationDate), ("cardholderName", \.cardholderName),
            ("onlinePaymentCryptogram", \.onlinePaymentCryptogram), ("eciIndicator", \.eciIndicator),
            ("emvData", \.emvData), ("applicationData", \.applicationData), ("signingTime", \.signingTime),
        ]
    }
}

extension SandboxTokenOptions {
    /// The mint request these options describe, or the first field that is wrong.
    func mintRequest(now: Date) throws(GatewayError) -> MintRequest {
        var request = MintRequest()
        let currency = try Self.currency(currency)
        guard let amountText = amount else { throw GatewayError.missing("amount") }
        do {
            request.transactionAmount = try Amount(parsing: amountText, currency: currency).minorUnits
        } catch {
            throw GatewayError.invalidValue(
                "amount",
                amountText,
                "Give a positive decimal amount with at most \(currency.exponent) decimal places for \(currency.code)"
            )
        }
        request.currencyCode = currency.numericCode
        switch version ?? "EC_v1" {
        case "EC_v1": request.version = .ecV1
        case "RSA_v1": request.version = .rsaV1
        case let other: throw GatewayError.invalidValue("version", other, "Use EC_v1 or RSA_v1")
        }
        if let pan = applicationPrimaryAccountNumber {
            guard (12...19).contains(pan.count), pan.allSatisfy(\.isASCIIDigit) else {
                throw GatewayError.invalidValue("applicationPrimaryAccountNumber", pan, "Use 12 to 19 digits")
            }
            request.applicationPrimaryAccountNumber = pan
        }
        if let expiry = applicationExpirationDate {
            guard Self.isExpiryDate(expiry) else {
                throw GatewayError.invalidValue("applicationExpirationDate", expiry, "Use YYMMDD")
            }
            request.applicationExpirationDate = expiry
        }
        if let name = cardholderName {
            guard (1...100).contains(name.count) else {
                throw GatewayError.invalidValue("cardholderName", name, "Use 1 to 100 characters")
            }
            request.cardholderName = name
        }
        request.details = try details()
        if let hex = applicationData {
            guard let bytes = Hex.decode(hex), !bytes.isEmpty, bytes.count <= 4096 else {
                throw GatewayError.invalidValue("applicationData", hex, "Use hex of 1 to 4096 bytes")
            }
            request.applicationData = bytes
        }
        request.signingTime = try Self.signingTime(signingTime) ?? now
        return request
    }

    private static func currency(_ code: String?) throws(GatewayError) -> Currency {
        guard let code else { throw GatewayError.missing("currency") }
        guard let currency = Currency(code: code) else {
            throw GatewayError.invalidValue("currency", code, "Use an ISO 4217 alphabetic currency code")
        }
        return currency
    }

    private func details() throws(GatewayError) -> MintRequest.Details {
        switch paymentDataType ?? "3DSecure" {
        case "3DSecure":
            if emvData != nil { throw GatewayError.unexpected("emvData") }
            let cryptogram = onlinePaymentCryptogram ?? Data(Bytes.random(count: 20)).base64EncodedString()
            guard Data(base64Encoded: cryptogram).map({ !$0.isEmpty }) == true else {
                throw GatewayError.invalidValue("onlinePaymentCryptogram", cryptogram, "Use base64")
            }
            if let eci = eciIndicator, !((1...2).contains(eci.count) && eci.allSatisfy(\.isASCIIDigit)) {
                throw GatewayError.invalidValue("eciIndicator", eci, "Use one or two digits")
            }
            return .threeDSecure(onlinePaymentCryptogram: cryptogram, eciIndicator: eciIndicator ?? "7")
        case "EMV":
            if onlinePaymentCryptogram != nil { throw GatewayError.unexpected("onlinePaymentCryptogram") }
            if eciIndicator != nil { throw GatewayError.unexpected("eciIndicator") }
            let emv = emvData ?? Data(Bytes.random(count: 64)).base64EncodedString()
            guard Data(base64Encoded: emv).map({ !$0.isEmpty }) == true else {
                throw GatewayError.invalidValue("emvData", emv, "Use base64")
            }
            return .emv(emvData: emv, encryptedPINData: nil)
        case let other:
            throw GatewayError.invalidValue("paymentDataType", other, "Use 3DSecure or EMV")
        }
    }

    private static func isExpiryDate(_ text: String) -> Bool {
        guard text.count == 6, text.allSatisfy(\.isASCIIDigit), let month = Int(text.dropFirst(2).prefix(2)),
            let day = Int(text.suffix(2))
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    private static func signingTime(_ text: String?) throws(GatewayError) -> Date? {
        guard let text else { return nil }
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw GatewayError.invalidValue("signingTime", text, "Use ISO 8601, e.g. 2026-01-31T12:00:00Z")
        }
        return date
    }
}
