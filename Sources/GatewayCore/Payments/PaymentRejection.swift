import ApplePayToken
import GooglePayToken

/// Why the gateway refused a payment or follow-on request: one case per rule. Rejections carry
/// the facts of the case, never an HTTP status or a message; the HTTP front end words them.
package enum PaymentRejection: Error, Sendable, Hashable {
    /// The transaction id was already used on this order for a request with different details.
    case transactionIdReused(String)
    /// A follow-on request names an order that has no transactions.
    case orderNotFound(String)
    /// An AUTHORIZE or PAY on an order that already has a successful one.
    case orderAlreadySucceeded
    /// Another replica kept changing the order while this transaction was being decided.
    case orderChanged
    /// A stored order in a currency this gateway no longer knows.
    case orderCurrencyUnknown(String)
    /// A CAPTURE, REFUND or UPDATE_AUTHORIZATION without an amount.
    case amountMissing
    /// A CAPTURE, REFUND or UPDATE_AUTHORIZATION in another currency than the order's.
    case currencyMismatch(Currency, orderCurrency: Currency)
    /// A CAPTURE on an order that is not (or no longer) authorized.
    case nothingToCapture
    /// A REFUND on an order with nothing captured.
    case nothingCaptured
    /// A REFUND whose target is not a successful, unvoided capture or payment on the order.
    case refundTargetNotFound(String)
    /// A CAPTURE or REFUND for more than the order has available.
    case exceedsAvailable(FollowOnRequest.Operation, amount: Amount, available: Amount)
    /// A VOID whose target cannot be voided (missing, failed, already voided, or money moved since).
    case nothingToVoid
    /// The wallet token (Apple Pay or Google Pay) was refused.
    case token(TokenRejection)
    /// The 3-D Secure authentication the payment names was refused.
    case authentication(AuthenticationRejection)
    /// The 3-D Secure 1 authentication the payment names (top-level `3DSecureId`) was refused.
    case threeDS1(ThreeDS1Rejection)

    // UPDATE_AUTHORIZATION (issue 30).
    /// An UPDATE_AUTHORIZATION on an order with no authorization left to change (never authorized,
    /// paid, fully captured, refunded, voided or failed).
    case nothingToUpdate(OrderStatus)
    /// An UPDATE_AUTHORIZATION whose new total is less than the order has captured already.
    case updateBelowCaptured(amount: Amount, captured: Amount)

    // Risk assessment (issue 64).
    /// A CAPTURE or UPDATE_AUTHORIZATION on an order whose payment an operator rejected in its
    /// risk review: only a VOID or REFUND may follow.
    case riskReviewRejected(String)
}

/// Why a wallet token was refused: by a token library, or by the gateway's own checks of the
/// decrypted payment (Apple's steps 5 and 6; Google's replay and merchant checks).
package enum TokenRejection: Error, Sendable, Hashable {
    /// The token library's verdict (signature, chain, signing time, key, decryption, payment data).
    case library(code: ApplePayTokenError.Code, reason: String)
    /// A token with this transactionId was already accepted.
    case replayed
    /// The token's currency (ISO 4217 numeric) is not the order's.
    case currencyMismatch(tokenCurrencyCode: String, orderCurrency: Currency)
    /// The token's amount is not the order's.
    case amountMismatch(token: Amount, order: Amount)
    /// The token's applicationData is not the SHA-256 of what the merchant sent.
    case applicationDataMismatch
    /// The payment data's applicationExpirationDate is not YYMMDD.
    case malformedExpiry

    // Google Pay (issue 65).
    /// The Google Pay token library's verdict (signatures, keys, decryption, the message).
    case googlePay(code: GooglePayTokenError.Code, reason: String)
    /// The merchant has no Google Pay private key configured.
    case googlePayNotEnabled
    /// The message's gatewayMerchantId names another merchant than the request's.
    case gatewayMerchantMismatch(String)
    /// A Google Pay message with this messageId was already accepted.
    case googlePayReplayed

    package init(_ error: ApplePayTokenError) {
        self = .library(code: error.code, reason: error.reason)
    }

    package init(_ error: GooglePayTokenError) {
        self = .googlePay(code: error.code, reason: error.reason)
    }

    /// The wallet whose token this is about.
    package var wallet: WalletProvider {
        switch self {
        case .googlePay, .googlePayNotEnabled, .gatewayMerchantMismatch, .googlePayReplayed: .googlePay
        default: .applePay
        }
    }

    /// The stable code metrics count and messages start with.
    package var code: String {
        switch self {
        case .library(let code, _): code.description
        case .replayed: "REPLAYED"
        case .currencyMismatch: "CURRENCY_MISMATCH"
        case .amountMismatch: "AMOUNT_MISMATCH"
        case .applicationDataMismatch: "APPLICATION_DATA_MISMATCH"
        case .malformedExpiry: "MALFORMED_PAYMENT_DATA"
        case .googlePay(let code, _): code.rawValue
        case .googlePayNotEnabled: "GOOGLE_PAY_NOT_ENABLED"
        case .gatewayMerchantMismatch: "GATEWAY_MERCHANT_MISMATCH"
        case .googlePayReplayed: "REPLAYED"
        }
    }
}

extension TokenRejection {
    /// Nothing was decided about the token (the library verified as many new certificate chains
    /// this second as it may): every API answers busy, not invalid, and the same request may be
    /// sent again.
    package var isUndecided: Bool {
        if case .library(let code, _) = self { return code == .verificationBusy }
        return false
    }

    /// Why, for the merchant's engineer (after the code), in every API's words.
    package var reason: String {
        switch self {
        case .library(_, let reason):
            reason
        case .replayed:
            "a token with this transactionId was already accepted"
        case .currencyMismatch(let tokenCurrencyCode, let currency):
            "the token's currencyCode \(tokenCurrencyCode) is not \(currency.code) (\(currency.numericCode))"
        case .amountMismatch(let token, let order):
            "the token's transactionAmount is \(token.text), the order amount is \(order.text)"
        case .applicationDataMismatch:
            "the token's applicationData is not the SHA-256 of sourceOfFunds.provided.card.devicePayment.applicationData"
        case .malformedExpiry:
            "applicationExpirationDate is not YYMMDD"
        case .googlePay(_, let reason):
            reason
        case .googlePayNotEnabled:
            "the merchant has no Google Pay key configured (merchant.<ID>.googlePay.privateKeys)"
        case .gatewayMerchantMismatch(let named):
            "the message's gatewayMerchantId is \(named.prefix(64)), not the merchant in the request's path"
        case .googlePayReplayed:
            "a message with this messageId was already accepted"
        }
    }
}
