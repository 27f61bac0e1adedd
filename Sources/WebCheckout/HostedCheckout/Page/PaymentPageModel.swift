/// What the payment page shows: the merchant, the order, the form's state after a post, and
/// what its script needs (Apple Pay, the payer's time left). Filled by the routes from the
/// checkout session; rendered by ``PaymentPage``.
package struct PaymentPageModel: Sendable {
    /// The payment the page's button makes (its label says which).
    package enum Operation: Sendable {
        case purchase
        case authorize
        case verify
        /// The card is only saved in the session for the merchant.
        case none
    }

    package struct Item: Sendable {
        var name: String
        var quantity: String
        var amount: String?
    }

    package var sessionId: String
    /// Carried by every form the page posts.
    package var formToken: String
    /// In the merchant page's iframe: no outer chrome, no Apple Pay.
    package var embedded: Bool
    package var merchantName: String
    package var merchantId: String
    /// A `data:image/…` URL, or nil.
    package var logoURL: String?
    package var merchantContact: [String]
    package var orderDescription: String?
    package var amount: String
    package var currency: String
    package var items: [Item]
    package var operation: Operation
    /// What the form shows again after an error (never the card number or security code).
    package var entered: EnteredCard
    /// Words per input id (`card-number`, `expiry-month`, …).
    package var fieldErrors: [String: String]
    /// A page-level message: a decline, a failed authentication.
    package var message: String?
    package var applePay: ApplePayOffer?
    package var googlePay: GooglePayOffer? = nil
    /// The payer's time left: the page's script posts the cancel form as a timeout at zero.
    package var secondsLeft: Int?
}

/// What the payer typed that the page may show again.
package struct EnteredCard: Sendable {
    var expiryMonth = ""
    var expiryYear = ""
    var nameOnCard = ""
}

/// What the page's script needs for `new ApplePaySession(3, request)`.
package struct ApplePayOffer: Sendable {
    var countryCode: String
    var currencyCode: String
    var totalLabel: String
    var amount: String
    var supportedNetworks: [String]
    var merchantCapabilities: [String]
    /// The sandbox's `ApplePaySession`, loaded before the page's script; nil in production.
    var scriptPath: String?
}

/// What the page's script needs for Google Pay's `loadPaymentData`: the tokenization parameters
/// naming the checkout's merchant, and the total.
package struct GooglePayOffer: Sendable {
    var gateway: String
    var gatewayMerchantId: String
    var merchantName: String
    var currencyCode: String
    var totalPrice: String
    /// The sandbox's `google.payments.api`, loaded before the page's script; nil in production.
    var scriptPath: String?
}
