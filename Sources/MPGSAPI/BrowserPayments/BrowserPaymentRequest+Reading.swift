import GatewayCore

extension BrowserPaymentRequest {
    /// Validates an INITIATE_BROWSER_PAYMENT body (issue 64), with MPGS errors naming the field.
    static func reading(_ reader: RequestReader) throws(GatewayError) -> BrowserPaymentRequest {
        let operationText = try reader.requiredText("browserPayment.operation")
        guard let operation = PaymentRequest.Operation(rawValue: operationText), operation != .verify else {
            throw BrowserPaymentError.operation(operationText)
        }
        let returnURL = try reader.requiredText("browserPayment.returnUrl")
        guard returnURL.hasPrefix("https://") || returnURL.hasPrefix("http://"), returnURL.count > 11 else {
            throw BrowserPaymentError.returnURL(returnURL)
        }
        // Versions before 50 name PayPal in sourceOfFunds.type; later ones say BROWSER_PAYMENT
        // and name the provider in sourceOfFunds.browserPayment.type.
        let sourceType = try reader.requiredText("sourceOfFunds.type")
        let type: BrowserPaymentType
        switch sourceType {
        case "PAYPAL":
            type = .paypal
        case "BROWSER_PAYMENT":
            let provider = try reader.requiredText("sourceOfFunds.browserPayment.type")
            guard let named = BrowserPaymentType(rawValue: provider) else {
                throw BrowserPaymentError.provider(provider)
            }
            type = named
        default:
            throw BrowserPaymentError.sourceType(sourceType)
        }
        // The catalogue allows only its two values; none sent: the payer confirms at PayPal.
        let confirmation =
            reader.text("browserPayment.paypal.paymentConfirmation").flatMap(PaymentConfirmation.init(rawValue:)) ?? .atProvider
        let currencyCode = try reader.requiredText("order.currency")
        guard let currency = Currency(code: currencyCode) else {
            throw GatewayError.invalidValue("order.currency", currencyCode, "Currency is not supported")
        }
        return BrowserPaymentRequest(
            operation: operation,
            type: type,
            amount: try Amount.reading(reader, "order.amount", currency),
            orderReference: reader.text("order.reference"),
            transactionReference: reader.text("transaction.reference"),
            transactionSource: reader.text("transaction.source") ?? "INTERNET",
            returnURL: returnURL,
            notificationURL: reader.text("order.notificationUrl"),
            confirmation: confirmation
        )
    }
}

/// The errors only a browser payment meets, built in one place for the reading and ERRORS.md.
enum BrowserPaymentError {
    static func operation(_ value: String) -> GatewayError {
        .invalidValue("browserPayment.operation", value, "Must be AUTHORIZE or PAY")
    }

    static func returnURL(_ value: String) -> GatewayError {
        .invalidValue("browserPayment.returnUrl", value, "The return URL must be an http(s) URL longer than 11 characters")
    }

    static func sourceType(_ value: String) -> GatewayError {
        .invalidValue("sourceOfFunds.type", value, "A browser payment's source of funds is BROWSER_PAYMENT or PAYPAL")
    }

    static func provider(_ value: String) -> GatewayError {
        .unsupported("sourceOfFunds.browserPayment.type", value, "The merchant is not enabled for this browser payment")
    }

    static func notSimulated(_ operation: BrowserPaymentOperation) -> GatewayError {
        .unsupported("apiOperation", operation.rawValue, "Browser payments are simulated in sandbox mode only")
    }
}
