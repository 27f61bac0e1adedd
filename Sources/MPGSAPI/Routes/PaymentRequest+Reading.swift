import ApplePayToken
import Foundation
import GatewayCore
import GooglePayToken
import WireJSON

extension PaymentRequest {
    /// Validates an AUTHORIZE, PAY or VERIFY body, field by field, with MPGS errors naming the field.
    static func reading(_ reader: RequestReader, operation: Operation) throws(GatewayError) -> PaymentRequest {
        let currencyCode = try reader.requiredText("order.currency")
        guard let currency = Currency(code: currencyCode) else {
            throw GatewayError.invalidValue("order.currency", currencyCode, "Currency is not supported")
        }
        // VERIFY moves no money: whatever amount the client sends, nothing is authorized.
        let amount =
            operation == .verify
            ? Amount(minorUnits: 0, currency: currency) : try Amount.reading(reader, "order.amount", currency)
        if let type = reader.text("sourceOfFunds.type"), type != "CARD" {
            throw GatewayError.unsupported("sourceOfFunds.type", type, "Only CARD is supported")
        }
        let walletProvider = try reader.walletProvider()
        let orderReference = reader.text("order.reference")
        let transactionReference = reader.text("transaction.reference")
        let transactionSource = reader.text("transaction.source") ?? "INTERNET"
        var request = PaymentRequest(
            operation: operation,
            amount: amount,
            walletProvider: walletProvider,
            orderReference: orderReference,
            transactionReference: transactionReference,
            transactionSource: transactionSource,
            source: try source(reader, walletProvider: walletProvider)
        )
        request.authenticationTransactionId = reader.text("authentication.transactionId")
        // Versions up to 78 name a 3-D Secure 1 check by id (the catalogue refuses it later).
        request.threeDSecureId = reader.text("3DSecureId").flatMap { $0.isEmpty ? nil : $0 }
        request.notificationURL = reader.text("order.notificationUrl")
        request.billingCountry = reader.text("billing.address.country")
        // Issue 64: payments in a series (the catalogue has checked the enumeration).
        request.storedCredentials = StoredCredentials(
            agreementId: reader.text("agreement.id"),
            referenceOrderId: reader.text("referenceOrderId"),
            storedOnFile: reader.text("\(card).storedOnFile").flatMap(StoredOnFile.init(rawValue:))
        )
        return request
    }

    private static let card = "sourceOfFunds.provided.card"
    private static let devicePayment = "sourceOfFunds.provided.card.devicePayment"

    private static func source(_ reader: RequestReader, walletProvider: WalletProvider?) throws(GatewayError) -> Source {
        if let token = reader.value("\(devicePayment).paymentToken") {
            return try walletToken(token, reader: reader, walletProvider: walletProvider)
        }
        guard reader.hasContent(card) else { throw GatewayError.missing("\(card).number") }
        let number = try cardNumber(reader)
        let expiry = try CardExpiry.reading(
            month: reader.requiredText("\(card).expiry.month"),
            year: reader.requiredText("\(card).expiry.year"),
            field: "\(card).expiry"
        )
        // Stored and echoed: a card number typed into the name is masked like one in a log.
        let nameOnCard = reader.text("\(card).nameOnCard").map(CardNumberRedaction.mask)
        if reader.hasContent(devicePayment) {
            // Payment data the merchant decrypted itself, from either wallet.
            guard walletProvider != nil else {
                throw GatewayError.missing("order.walletProvider")
            }
            let formatText = try reader.requiredText("\(devicePayment).cryptogramFormat")
            guard let format = CryptogramFormat(rawValue: formatText) else {
                throw GatewayError.invalidValue("\(devicePayment).cryptogramFormat", formatText, "Must be 3DSECURE or EMV")
            }
            let cryptogram = reader.text("\(devicePayment).onlinePaymentCryptogram")
            if format == .threeDSecure, cryptogram == nil {
                throw GatewayError.missing("\(devicePayment).onlinePaymentCryptogram")
            }
            return .devicePayment(
                DeviceCard(
                    number: number,
                    expiry: expiry,
                    cryptogramFormat: format,
                    onlinePaymentCryptogram: cryptogram,
                    eciIndicator: reader.text("\(devicePayment).eciIndicator"),
                    nameOnCard: nameOnCard
                )
            )
        }
        let securityCode = try Self.securityCode(reader)
        return .card(PlainCard(number: number, expiry: expiry, securityCode: securityCode, nameOnCard: nameOnCard))
    }

    /// The token, read as the wallet the request names: the gateway verifies and decrypts it.
    private static func walletToken(
        _ value: JSONValue,
        reader: RequestReader,
        walletProvider: WalletProvider?
    )
        throws(GatewayError) -> Source
    {
        let field = "\(devicePayment).paymentToken"
        guard let walletProvider else {
            throw GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation: "order.walletProvider must be APPLE_PAY or GOOGLE_PAY when a payment token is provided",
                field: "order.walletProvider",
                validationType: .missing
            )
        }
        if walletProvider == .googlePay {
            if reader.text("\(devicePayment).applicationData") != nil {
                throw GatewayError.invalid("\(devicePayment).applicationData", "applicationData is Apple Pay's: a Google Pay token has none")
            }
            return .googlePayToken(try parsedGooglePayToken(value, field: field))
        }
        let token = try parsedToken(value, field: field)
        var applicationData: [UInt8]?
        if let encoded = reader.text("\(devicePayment).applicationData") {
            guard let decoded = Data(base64Encoded: encoded) else {
                throw GatewayError.invalidValue(
                    "\(devicePayment).applicationData",
                    encoded,
                    "applicationData must be the base64 text given to the Apple Pay payment request"
                )
            }
            applicationData = Array(decoded)
        }
        return .applePayToken(token, applicationData: applicationData)
    }

    /// The token is a JSON string (or base64 of it); some clients embed the object itself.
    static func parsedToken(_ value: JSONValue, field: String) throws(GatewayError) -> PaymentToken {
        let text = try tokenText(value, field: field)
        do {
            return try PaymentToken(parsing: text)
        } catch {
            throw GatewayError.unparsableToken(TokenRejection(error))
        }
    }

    /// A Google Pay token: the JSON text of `paymentMethodData.tokenizationData.token` (or, as some
    /// clients send it, the object itself).
    static func parsedGooglePayToken(_ value: JSONValue, field: String) throws(GatewayError) -> GooglePaymentMethodToken {
        let text = try tokenText(value, field: field)
        do {
            return try GooglePaymentMethodToken(parsing: text)
        } catch {
            throw GatewayError.unparsableToken(TokenRejection(error))
        }
    }

    /// A wallet token's text: the string as sent, or an embedded object serialized.
    private static func tokenText(_ value: JSONValue, field: String) throws(GatewayError) -> String {
        switch value {
        case .string(let string): string
        case .object: String(decoding: value.serialized(), as: UTF8.self)
        default: throw GatewayError.invalid(field, "Value for '\(field)' must be a string")
        }
    }

    static func securityCode(_ reader: RequestReader) throws(GatewayError) -> String? {
        let securityCode = reader.text("\(card).securityCode")
        if let securityCode, !securityCode.utf8.allSatisfy(\.isASCIIDigit) || !(3...4).contains(securityCode.utf8.count) {
            throw GatewayError.invalidValue("\(card).securityCode", "***", "Security code must be 3 or 4 digits")
        }
        return securityCode
    }

    static func cardNumber(_ reader: RequestReader) throws(GatewayError) -> String {
        let number = try reader.requiredText("\(card).number")
        guard number.utf8.allSatisfy(\.isASCIIDigit), (12...19).contains(number.utf8.count) else {
            throw GatewayError.invalidValue(
                "\(card).number",
                CardNumberMask.mask(number),
                "Card number must be 12 to 19 digits"
            )
        }
        return number
    }
}

extension RequestReader {
    /// `order.walletProvider`, read the same way for a payment and a session update: every wallet
    /// the reference lists is a valid value (the catalogue checks that); this gateway takes Apple
    /// Pay and Google Pay.
    func walletProvider() throws(GatewayError) -> WalletProvider? {
        guard let text = text("order.walletProvider") else { return nil }
        guard let provider = WalletProvider(rawValue: text) else {
            throw GatewayError.unsupported("order.walletProvider", text, "The merchant is not enabled for wallet provider \(text)")
        }
        return provider
    }
}
