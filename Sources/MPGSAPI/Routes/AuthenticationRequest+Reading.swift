import ApplePayToken
import GatewayCore

extension InitiateAuthenticationRequest {
    /// Validates an INITIATE_AUTHENTICATION body: the order's currency (and amount, if sent) and
    /// the card; the channel and purpose default as the reference's do.
    static func reading(_ reader: RequestReader) throws(GatewayError) -> InitiateAuthenticationRequest {
        let currency = try AuthenticatePayerRequest.currency(reader)
        let amount =
            reader.text("order.amount") == nil
            ? Amount(minorUnits: 0, currency: currency) : try Amount.reading(reader, "order.amount", currency)
        if let type = reader.text("sourceOfFunds.type"), type != "CARD" {
            throw GatewayError.unsupported("sourceOfFunds.type", type, "Only CARD is supported")
        }
        let card = "sourceOfFunds.provided.card"
        var expiry: CardExpiry?
        if let month = reader.text("\(card).expiry.month") {
            expiry = try CardExpiry.reading(month: month, year: reader.requiredText("\(card).expiry.year"), field: "\(card).expiry")
        }
        return InitiateAuthenticationRequest(
            amount: amount,
            cardNumber: try PaymentRequest.cardNumber(reader),
            expiry: expiry,
            nameOnCard: reader.text("\(card).nameOnCard").map(CardNumberRedaction.mask),
            channel: reader.text("authentication.channel") ?? "PAYER_BROWSER",
            purpose: reader.text("authentication.purpose") ?? "PAYMENT_TRANSACTION",
            acceptVersions: reader.text("authentication.acceptVersions")
        )
    }
}

extension AuthenticatePayerRequest {
    /// Validates an AUTHENTICATE_PAYER body: the amount to authenticate and where the payer's
    /// browser returns to. The card is the one INITIATE_AUTHENTICATION was given.
    static func reading(_ reader: RequestReader) throws(GatewayError) -> AuthenticatePayerRequest {
        let currency = try currency(reader)
        return AuthenticatePayerRequest(
            amount: try Amount.reading(reader, "order.amount", currency),
            redirectResponseUrl: try reader.requiredText("authentication.redirectResponseUrl")
        )
    }

    static func currency(_ reader: RequestReader) throws(GatewayError) -> Currency {
        let code = try reader.requiredText("order.currency")
        guard let currency = Currency(code: code) else {
            throw GatewayError.invalidValue("order.currency", code, "Currency is not supported")
        }
        return currency
    }
}
