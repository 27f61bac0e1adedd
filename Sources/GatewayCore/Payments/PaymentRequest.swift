import ApplePayToken
import GooglePayToken

/// An AUTHORIZE, PAY or VERIFY request, validated: the amount, and where the card comes from.
package struct PaymentRequest: Sendable {
    package enum Operation: String, Sendable, CaseIterable {
        case authorize = "AUTHORIZE"
        case pay = "PAY"
        /// Checks the card without moving money: no amount, order VERIFIED.
        case verify = "VERIFY"

        package var transactionType: TransactionType {
            switch self {
            case .authorize: .authorization
            case .pay: .payment
            case .verify: .verification
            }
        }

        package var apiOperation: APIOperation { .initial(self) }
    }

    /// The ways to pay.
    package enum Source: Sendable {
        /// An Apple Pay token for the gateway to verify and decrypt, and the merchant's
        /// applicationData (raw bytes) when the request carries it.
        case applePayToken(PaymentToken, applicationData: [UInt8]?)
        /// An Apple Pay token the front end has already verified and decrypted with this
        /// merchant's keys (to read what it needed first): the rest of the checks still apply.
        case decryptedApplePayToken(DecryptedPaymentToken)
        /// Apple Pay payment data the merchant decrypted itself.
        case devicePayment(DeviceCard)
        /// A card number typed in by the payer.
        case card(PlainCard)
        /// A Google Pay payment method token for the gateway to verify and decrypt (issue 65).
        case googlePayToken(GooglePaymentMethodToken)
    }

    package struct DeviceCard: Sendable {
        package var number: String
        package var expiry: CardExpiry
        package var cryptogramFormat: CryptogramFormat
        package var onlinePaymentCryptogram: String?
        package var eciIndicator: String?
        package var nameOnCard: String?

        package init(
            number: String,
            expiry: CardExpiry,
            cryptogramFormat: CryptogramFormat,
            onlinePaymentCryptogram: String?,
            eciIndicator: String?,
            nameOnCard: String?
        ) {
            self.number = number
            self.expiry = expiry
            self.cryptogramFormat = cryptogramFormat
            self.onlinePaymentCryptogram = onlinePaymentCryptogram
            self.eciIndicator = eciIndicator
            self.nameOnCard = nameOnCard
        }
    }

    package struct PlainCard: Sendable {
        package var number: String
        package var expiry: CardExpiry
        package var securityCode: String?
        package var nameOnCard: String?

        package init(number: String, expiry: CardExpiry, securityCode: String?, nameOnCard: String?) {
            self.number = number
            self.expiry = expiry
            self.securityCode = securityCode
            self.nameOnCard = nameOnCard
        }
    }

    package var operation: Operation
    package var amount: Amount
    package var walletProvider: WalletProvider?
    package var orderReference: String?
    package var transactionReference: String?
    package var transactionSource: String
    package var source: Source
    package var echo: RequestEcho
    /// `authentication.transactionId`: the 3-D Secure authentication on this order the payment
    /// carries (a plain card's; an Apple Pay payment is authenticated by its cryptogram).
    package var authenticationTransactionId: String?
    /// Top-level `3DSecureId` (API versions up to 78): the merchant's 3-D Secure 1 authentication
    /// the payment carries.
    package var threeDSecureId: String? = nil
    /// `order.notificationUrl`: where this order's notifications go instead of the merchant's URL.
    package var notificationURL: String? = nil
    /// `billing.address.country`, for the risk rules.
    package var billingCountry: String? = nil
    /// Issue 64: the agreement, the order it follows, whether the card is stored.
    package var storedCredentials = StoredCredentials()

    package init(
        operation: Operation,
        amount: Amount,
        walletProvider: WalletProvider?,
        orderReference: String?,
        transactionReference: String?,
        transactionSource: String,
        source: Source,
        echo: RequestEcho = RequestEcho()
    ) {
        self.operation = operation
        self.amount = amount
        self.walletProvider = walletProvider
        self.orderReference = orderReference
        self.transactionReference = transactionReference
        self.transactionSource = transactionSource
        self.source = source
        self.echo = echo
    }
}
