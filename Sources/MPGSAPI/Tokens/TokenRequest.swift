import ApplePayToken
import GatewayCore
import WireJSON

/// A Create or Update Token body, validated field by field (the session's content, when one is
/// named, already laid under it).
struct TokenRequest: Sendable {
    var card: TokenCard
    /// For an ACQUIRER verification only; never stored.
    var securityCode: String?
    var verificationStrategy: VerificationStrategy
    /// The currency of an ACQUIRER verification.
    var currency: Currency?

    private static let card = "sourceOfFunds.provided.card"

    static func reading(_ reader: RequestReader, repository: TokenRepository) throws -> TokenRequest {
        if let type = reader.text("sourceOfFunds.type"), type != "CARD" {
            throw GatewayError.unsupported("sourceOfFunds.type", type, "Only CARD is supported")
        }
        // An Apple Pay payment holds a cryptogram for one payment: nothing here may be stored.
        if reader.hasContent("\(card).devicePayment") { throw CardTokenRejection.devicePaymentNotStorable }
        let number = try PaymentRequest.cardNumber(reader)
        let expiry = try CardExpiry.reading(
            month: reader.requiredText("\(card).expiry.month"),
            year: reader.requiredText("\(card).expiry.year"),
            field: "\(card).expiry"
        )
        let securityCode = try PaymentRequest.securityCode(reader)
        var strategy = repository.verificationStrategy
        if let text = reader.text("verificationStrategy") {
            guard let chosen = VerificationStrategy(rawValue: text) else {
                throw GatewayError.invalidValue("verificationStrategy", text, "Must be ACQUIRER, BASIC or NONE")
            }
            strategy = chosen
        }
        var currency: Currency?
        if let code = reader.text("transaction.currency") {
            guard let parsed = Currency(code: code) else {
                throw GatewayError.invalidValue("transaction.currency", code, "Currency is not supported")
            }
            currency = parsed
        }
        switch strategy {
        case .basic:
            guard Luhn.isValid(number) else {
                throw GatewayError.invalidValue("\(card).number", CardNumberMask.mask(number), "Card number does not pass the Luhn (mod 10) check")
            }
        case .acquirer:
            // The reference: an ACQUIRER verification needs the currency to verify in.
            if currency == nil { throw GatewayError.missing("transaction.currency") }
        case .none:
            break
        }
        return TokenRequest(
            card: TokenCard(number: number, expiry: expiry),
            securityCode: securityCode,
            verificationStrategy: strategy,
            currency: currency
        )
    }

    /// What the verification strategy finds of the card: ACQUIRER asks the merchant's acquirer
    /// (the simulator) for a VERIFY, which moves no money.
    func verify(with acquirer: any Acquirer) async -> TokenVerification {
        switch verificationStrategy {
        case .none: return .noVerificationPerformed
        case .basic: return .basicVerificationSuccessful
        case .acquirer:
            guard let currency else { return .externalVerificationProcessingError }
            let outcome = await acquirer.process(
                AcquirerRequest(
                    operation: .verify,
                    amount: Amount(minorUnits: 0, currency: currency),
                    cardNumber: card.number,
                    expiry: card.expiry,
                    securityCode: securityCode,
                    isDevicePayment: false
                )
            )
            return TokenVerification(acquirer: outcome)
        }
    }
}
