/// How a merchant's token repository is configured (the reference's "How to Configure
/// Tokenization"): the form of the tokens the gateway generates and how a card is verified
/// before it is stored.
package struct TokenRepository: Sendable, Hashable {
    package var id: String
    package var format: TokenFormat
    package var verificationStrategy: VerificationStrategy

    package init(id: String, format: TokenFormat = .random, verificationStrategy: VerificationStrategy = .basic) {
        self.id = id
        self.format = format
        self.verificationStrategy = verificationStrategy
    }
}

/// MPGS `verificationStrategy`: what the gateway checks of a card before storing it.
package enum VerificationStrategy: String, Sendable, Hashable, CaseIterable {
    /// A VERIFY through the acquirer (here, the simulator); a card it does not approve is not stored.
    case acquirer = "ACQUIRER"
    /// The checks a payment's fields get (number, expiry), nothing sent to the acquirer.
    case basic = "BASIC"
    /// Stored as given, after the request's own format checks.
    case none = "NONE"
}
