import ApplePayToken
import Foundation
import MPGSAPI
import WireJSON

/// What the sandbox sheet posts when the payer presses Pay: the merchant session, the payment
/// request's total and codes, and the chosen test card.
///
/// `{"merchantSession": {...}, "total": {"label": "Shop", "amount": "56.56"}, "currencyCode": "USD",
/// "countryCode": "US", "card": "mastercard", "applicationData": "<base64>"?}`
struct SandboxApplePayPaymentRequest: Sendable {
    var merchantSession: ApplePayMerchantSession
    var amount: String
    var currencyCode: String
    var countryCode: String
    var card: SandboxWalletCard
    /// The payment request's `applicationData` (base64 in the request); the token's header
    /// carries its SHA-256, as Apple's does.
    var applicationData: [UInt8]?

    init(reading fields: SandboxApplePayFields) throws(SandboxApplePayError) {
        merchantSession = try ApplePayMerchantSession(reading: try fields.object("merchantSession"))
        amount = try fields.object("total").text("amount")
        currencyCode = try fields.text("currencyCode")
        countryCode = try fields.text("countryCode")
        guard countryCode.utf8.count == 2, countryCode.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw .invalid("countryCode", "Value '\(countryCode.prefix(64))' is invalid. Use an ISO 3166 two-letter country code")
        }
        let cardId = try fields.optionalText("card") ?? SandboxWalletCard.all[0].id
        guard let card = SandboxWalletCard.card(id: cardId) else {
            throw .invalid(
                "card",
                "Value '\(cardId.prefix(64))' is invalid. Use one of the sandbox cards: "
                    + SandboxWalletCard.all.map(\.id).joined(separator: ", ")
            )
        }
        self.card = card
        if let data = try fields.optionalText("applicationData") {
            guard let bytes = Data(base64Encoded: data), !bytes.isEmpty else {
                throw .invalid("applicationData", "'applicationData' must be base64, as ApplePayPaymentRequest.applicationData is")
            }
            applicationData = Array(bytes)
        }
    }

    /// The token options: the total and currency, the chosen card.
    var tokenOptions: SandboxTokenOptions {
        var options = SandboxTokenOptions()
        options.amount = amount
        options.currency = currencyCode
        options.applicationPrimaryAccountNumber = card.primaryAccountNumber
        options.applicationData = applicationData.map { Hex.encode($0) }
        return options
    }

    /// `ApplePayPayment`, as `onpaymentauthorized` hands it to the page: `token.paymentData` is the
    /// token JSON as an object, as Safari gives it; contacts are the script's to add.
    static func applePayPayment(paymentToken: String, card: SandboxWalletCard) -> JSONValue? {
        guard let paymentData = try? JSONValue(parsing: Array(paymentToken.utf8)),
            let transactionId = paymentData["header"]?["transactionId"]?.stringValue
        else { return nil }
        return .object([
            "token": .object([
                "paymentData": paymentData,
                "paymentMethod": card.paymentMethod,
                "transactionIdentifier": .string(transactionId.uppercased()),
            ])
        ])
    }
}
