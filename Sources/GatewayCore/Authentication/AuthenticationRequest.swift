/// INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER: MPGS's Payer Authentication API.
package enum AuthenticationOperation: String, Sendable, Hashable, CaseIterable {
    case initiateAuthentication = "INITIATE_AUTHENTICATION"
    case authenticatePayer = "AUTHENTICATE_PAYER"

    package var apiOperation: APIOperation { .authentication(self) }
}

/// An INITIATE_AUTHENTICATION request, validated: the card (whose number picks the test
/// scenario and is then dropped) and how the payer will be authenticated.
package struct InitiateAuthenticationRequest: Sendable {
    /// The order's amount when the request gives one; zero in its currency when not.
    package var amount: Amount
    package var cardNumber: String
    package var expiry: CardExpiry?
    package var nameOnCard: String?
    package var channel: String
    package var purpose: String
    package var acceptVersions: String?

    package init(
        amount: Amount,
        cardNumber: String,
        expiry: CardExpiry?,
        nameOnCard: String?,
        channel: String,
        purpose: String,
        acceptVersions: String?
    ) {
        self.amount = amount
        self.cardNumber = cardNumber
        self.expiry = expiry
        self.nameOnCard = nameOnCard
        self.channel = channel
        self.purpose = purpose
        self.acceptVersions = acceptVersions
    }
}

/// An AUTHENTICATE_PAYER request, validated: the amount to authenticate and where the payer's
/// browser goes back to.
package struct AuthenticatePayerRequest: Sendable {
    package var amount: Amount
    package var redirectResponseUrl: String

    package init(amount: Amount, redirectResponseUrl: String) {
        self.amount = amount
        self.redirectResponseUrl = redirectResponseUrl
    }
}

/// Who and which authentication a request is about.
package struct AuthenticationContext: Sendable {
    package var merchantId: String
    package var orderId: String
    package var transactionId: String
    package var version: APIVersion

    package init(merchantId: String, orderId: String, transactionId: String, version: APIVersion) {
        self.merchantId = merchantId
        self.orderId = orderId
        self.transactionId = transactionId
        self.version = version
    }

    var orderKey: String { "\(merchantId)\u{0}\(orderId)" }
}
