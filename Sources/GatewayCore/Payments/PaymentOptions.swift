/// What a merchant may pay with at this gateway (Payment Options Inquiry), from its
/// configuration: the card brands and currencies the gateway takes, the wallets the merchant is
/// set up for, how payers authenticate, where cards can be kept, and the payment operations.
/// A filter narrows it as the reference says: to one currency, or to the brand of a card prefix.
package struct PaymentOptions: Sendable, Hashable {
    /// What the request asked about; nil takes everything.
    package struct Filter: Sendable, Hashable {
        package var currency: Currency?
        /// The first digits of a card number: only its brand is returned.
        package var cardPrefix: String?

        /// An empty prefix is no prefix, as an empty value is absent in every request
        /// (FieldFormat.check): it names no brand, and left none at all.
        package init(currency: Currency? = nil, cardPrefix: String? = nil) {
            self.currency = currency
            self.cardPrefix = cardPrefix?.isEmpty == true ? nil : cardPrefix
        }
    }

    /// The 3-D Secure protocol versions payers authenticate with here.
    package enum ThreeDSecureVersion: String, Sendable, Hashable, CaseIterable {
        /// EMV 3-D Secure 2, simulated in the sandbox.
        case threeDS2 = "3DS2"
    }

    /// Every brand the card-number rules name (``CardBrand``), in their MPGS spelling.
    package static let cardBrands = ["AMEX", "DINERS_CLUB", "DISCOVER", "JCB", "MAESTRO", "MASTERCARD", "UNIONPAY", "VISA"]

    package var cardBrands: [String]
    package var currencies: [Currency]
    package var wallets: [WalletProvider]
    /// Empty where 3-D Secure is not simulated (production): INITIATE_AUTHENTICATION is refused there.
    package var threeDSecureVersions: [ThreeDSecureVersion]
    /// Whether the merchant can store cards in its token repository: each merchant has one, kept
    /// sealed under the session key, so without that key (production unconfigured) there is none.
    package var hasTokenRepository: Bool
    package var operations: [PaymentRequest.Operation]

    /// The merchant's options. Apple Pay is offered only to a merchant with an Apple Pay identity
    /// (a key to decrypt its tokens with).
    package init(merchant: Merchant, filter: Filter = Filter(), tokensEnabled: Bool = true, threeDSecureEnabled: Bool = true) {
        cardBrands = Self.cardBrands
        if let prefix = filter.cardPrefix {
            let brand = CardBrand(cardNumber: prefix).brand
            cardBrands = cardBrands.filter { $0 == brand }
        }
        currencies = filter.currency.map { [$0] } ?? Currency.all
        wallets = (merchant.keyRing.identities.isEmpty ? [] : [.applePay]) + (merchant.googlePay == nil ? [] : [.googlePay])
        threeDSecureVersions = threeDSecureEnabled ? ThreeDSecureVersion.allCases : []
        hasTokenRepository = tokensEnabled
        operations = PaymentRequest.Operation.allCases
    }
}
