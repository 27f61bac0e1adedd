import ApplePayToken
import Foundation

extension PaymentRequest {
    /// Validates an AUTHORIZE, PAY or VERIFY body, field by field, with MPGS errors naming the field.
    init(reading reader: RequestReader, operation: Operation) throws(GatewayError) {
        self.operation = operation
        let currencyCode = try reader.requiredText("order.currency")
        guard let currency = Currency(code: currencyCode) else {
            throw GatewayError.invalidValue("order.currency", currencyCode, "Currency is not supported")
        }
        // VERIFY moves no money: whatever amount the client sends, nothing is authorized.
        amount = operation == .verify ? Amount(minorUnits: 0, currency: currency) : try Self.amount(reader, currency)
        if let type = reader.text("sourceOfFunds.type"), type != "CARD" {
            throw GatewayError.unsupported("sourceOfFunds.type", type, "Only CARD is supported")
        }
        walletProvider = reader.text("order.walletProvider")
        if let walletProvider, walletProvider != "APPLE_PAY" {
            throw GatewayError.unsupported("order.walletProvider", walletProvider, "Only APPLE_PAY is supported")
        }
        orderReference = reader.text("order.reference")
        transactionReference = reader.text("transaction.reference")
        transactionSource = reader.text("transaction.source") ?? "INTERNET"
        source = try Self.source(reader, walletProvider: walletProvider)
    }

    private static func amount(_ reader: RequestReader, _ currency: Currency) throws(GatewayError) -> Amount {
        let text = try reader.requiredText("order.amount")
        do {
            return try Amount(parsing: text, currency: currency)
        } catch .zero {
            throw GatewayError.invalidValue("order.amount", text, "Transaction or order amount must be greater than zero")
        } catch {
            throw GatewayError.invalidValue(
                "order.amount",
                text,
                "Amount must be a decimal number with at most \(currency.exponent) decimal places for \(currency.code)"
            )
        }
    }

    private static let card = "sourceOfFunds.provided.card"
    private static let devicePayment = "sourceOfFunds.provided.card.devicePayment"

    private static func source(_ reader: RequestReader, walletProvider: String?) throws(GatewayError) -> Source {
        if let token = reader.value("\(devicePayment).paymentToken") {
            return try applePayToken(token, reader: reader, walletProvider: walletProvider)
        }
        guard reader.hasContent(card) else { throw GatewayError.missing("\(card).number") }
        let number = try cardNumber(reader)
        let expiry = try CardExpiry(
            month: reader.requiredText("\(card).expiry.month"),
            year: reader.requiredText("\(card).expiry.year"),
            field: "\(card).expiry"
        )
        let nameOnCard = reader.text("\(card).nameOnCard")
        if reader.hasContent(devicePayment) {
            guard walletProvider == "APPLE_PAY" else {
                throw GatewayError.missing("order.walletProvider")
            }
            let format = try reader.requiredText("\(devicePayment).cryptogramFormat")
            guard format == "3DSECURE" || format == "EMV" else {
                throw GatewayError.invalidValue("\(devicePayment).cryptogramFormat", format, "Must be 3DSECURE or EMV")
            }
            let cryptogram = reader.text("\(devicePayment).onlinePaymentCryptogram")
            if format == "3DSECURE", cryptogram == nil {
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
        let securityCode = reader.text("\(card).securityCode")
        if let securityCode, !(3...4).contains(securityCode.count) || !securityCode.allSatisfy(\.isASCIIDigit) {
            throw GatewayError.invalidValue("\(card).securityCode", "***", "Security code must be 3 or 4 digits")
        }
        return .card(PlainCard(number: number, expiry: expiry, securityCode: securityCode, nameOnCard: nameOnCard))
    }

    private static func applePayToken(
        _ value: JSONValue,
        reader: RequestReader,
        walletProvider: String?
    )
        throws(GatewayError) -> Source
    {
        let field = "\(devicePayment).paymentToken"
        guard walletProvider == "APPLE_PAY" else {
            throw GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation: "order.walletProvider must be APPLE_PAY when a payment token is provided",
                field: "order.walletProvider",
                validationType: .missing
            )
        }
        // The token is a JSON string (or base64 of it); some clients embed the object itself.
        let text: String
        switch value {
        case .string(let string): text = string
        case .object: text = String(decoding: value.serialized(), as: UTF8.self)
        default: throw GatewayError.invalid(field, "Value for '\(field)' must be a string")
        }
        let token: PaymentToken
        do {
            token = try PaymentToken(parsing: text)
        } catch {
            throw GatewayError.invalid(field, "Apple Pay token rejected: \(error.code): \(error.reason)")
        }
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

    private static func cardNumber(_ reader: RequestReader) throws(GatewayError) -> String {
        let number = try reader.requiredText("\(card).number")
        guard (12...19).contains(number.count), number.allSatisfy(\.isASCIIDigit) else {
            throw GatewayError.invalidValue(
                "\(card).number",
                CardNumberMask.mask(number),
                "Card number must be 12 to 19 digits"
            )
        }
        return number
    }
}
