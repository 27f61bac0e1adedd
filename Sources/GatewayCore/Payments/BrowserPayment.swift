import Foundation

/// MPGS's browser payment operations (issue 64): the payer approves the payment at a provider's
/// page (PayPal), to which INITIATE_BROWSER_PAYMENT sends their browser; when the merchant asked
/// to confirm it on its own site, CONFIRM_BROWSER_PAYMENT (the same transaction id) completes it.
/// UPDATE_BROWSER_PAYMENT asks the provider for the payment as it stands (the same transaction id).
package enum BrowserPaymentOperation: String, Sendable, Hashable, CaseIterable {
    case initiate = "INITIATE_BROWSER_PAYMENT"
    case confirm = "CONFIRM_BROWSER_PAYMENT"
    case update = "UPDATE_BROWSER_PAYMENT"
}

/// `browserPayment.paypal.paymentConfirmation`: where the payer commits to the payment. At
/// PayPal (its "Pay Now"), the approval completes it; at the merchant (PayPal's "Continue"), the
/// payer returns with the payment pending and the merchant's CONFIRM_BROWSER_PAYMENT completes it.
package enum PaymentConfirmation: String, Sendable, Hashable, CaseIterable {
    case atProvider = "CONFIRM_AT_PROVIDER"
    case atMerchant = "CONFIRM_AT_MERCHANT"
}

/// `sourceOfFunds.browserPayment.type`: the provider. This gateway simulates PayPal only.
package enum BrowserPaymentType: String, Sendable, Hashable, CaseIterable {
    case paypal = "PAYPAL"
}

/// What the payer did at the provider's page.
package enum PayerDecision: String, Sendable, Hashable {
    case approved = "APPROVE"
    case cancelled = "CANCEL"
}

/// An INITIATE_BROWSER_PAYMENT, validated: what the transaction recorded once the payer has
/// decided will hold. Until then it is carried, sealed, by the payer's browser.
package struct BrowserPaymentRequest: Sendable, Hashable {
    /// AUTHORIZE or PAY (`browserPayment.operation`).
    package var operation: PaymentRequest.Operation
    package var type: BrowserPaymentType
    package var amount: Amount
    package var orderReference: String?
    package var transactionReference: String?
    package var transactionSource: String
    package var returnURL: String
    package var notificationURL: String?
    package var confirmation: PaymentConfirmation
    package var echo: RequestEcho

    package init(
        operation: PaymentRequest.Operation,
        type: BrowserPaymentType,
        amount: Amount,
        orderReference: String?,
        transactionReference: String?,
        transactionSource: String,
        returnURL: String,
        notificationURL: String?,
        confirmation: PaymentConfirmation = .atProvider,
        echo: RequestEcho = RequestEcho()
    ) {
        self.operation = operation
        self.type = type
        self.amount = amount
        self.orderReference = orderReference
        self.transactionReference = transactionReference
        self.transactionSource = transactionSource
        self.returnURL = returnURL
        self.notificationURL = notificationURL
        self.confirmation = confirmation
        self.echo = echo
    }
}

/// The browser payment provider's simulator: the outcome follows `order.reference`, as the
/// reference's test values say ("Testing a Browser Payment Integration"). The delayed ones
/// (TEST-SUCCESS-INIT, TEST-FAIL-THEN-SUCCESS, ...) stay SUBMITTED: this simulator sends no later
/// notification [ours].
package enum BrowserPaymentSimulator {
    package static func gatewayCode(orderReference: String?, decision: PayerDecision) -> GatewayCode {
        guard decision == .approved else { return .cancelled }
        guard let reference = orderReference?.uppercased() else { return .approved }
        if let failure = reference.range(of: ".FAIL") {
            return GatewayCode(rawValue: String(reference[failure.upperBound...])) ?? .unknown
        }
        switch reference {
        case "TEST-FAIL-NOTFOUND", "TEST-FAIL-DECLINE": return .declined
        case "TEST-PENDING", "TEST-FAIL-THEN-SUCCESS", "TEST-FAIL-INIT", "TEST-SUCCESS-INIT", "TEST-TIMEOUT-THEN-SUCCESS":
            return .submitted
        default: return .approved
        }
    }
}
