/// MPGS's `transaction.authenticationStatus` of a payer authentication (EMV 3-D Secure), as the
/// simulated 3-D Secure server leaves it.
package enum AuthenticationStatus: String, Sendable, Hashable, CaseIterable {
    /// INITIATE_AUTHENTICATION found 3-D Secure 2 available for the card.
    case available = "AUTHENTICATION_AVAILABLE"
    /// The card is not enrolled: no authentication, the payment may proceed without one.
    case notSupported = "AUTHENTICATION_NOT_SUPPORTED"
    /// The issuer asked for a challenge: the payer is at the ACS page.
    case pending = "AUTHENTICATION_PENDING"
    case successful = "AUTHENTICATION_SUCCESSFUL"
    case failed = "AUTHENTICATION_FAILED"
    /// The directory server or the ACS could not authenticate (the error test card).
    case unavailable = "AUTHENTICATION_UNAVAILABLE"

    /// Whether a payment may name an authentication in this state: it was authenticated, or
    /// authentication does not apply to the card.
    package var allowsPayment: Bool {
        switch self {
        case .successful, .notSupported: true
        case .available, .pending, .failed, .unavailable: false
        }
    }

    /// MPGS's `response.gatewayRecommendation` for the authentication.
    package var proceed: Bool {
        switch self {
        case .available, .notSupported, .pending, .successful: true
        case .failed, .unavailable: false
        }
    }

    /// What the order's status says while it holds authentications only (MPGS order statuses).
    package var orderStatus: String {
        switch self {
        case .available, .pending: "AUTHENTICATION_INITIATED"
        case .notSupported: "AUTHENTICATION_NOT_NEEDED"
        case .successful: "AUTHENTICATED"
        case .failed, .unavailable: "AUTHENTICATION_UNSUCCESSFUL"
        }
    }
}

/// EMV 3-D Secure's `transStatus` (`authentication.3ds2.transactionStatus`).
package enum ThreeDSTransactionStatus: String, Sendable, Hashable {
    case authenticated = "Y"
    case notAuthenticated = "N"
    case unavailable = "U"
    case challengeRequired = "C"
}

/// What the payer picked on the sandbox ACS page.
package enum ChallengeOutcome: String, Sendable, Hashable, CaseIterable {
    case authenticated = "Y"
    case notAuthenticated = "N"
}
