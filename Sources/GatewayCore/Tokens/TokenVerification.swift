/// What verifying a card before it is stored found: the token response's `response.gatewayCode`.
package enum TokenVerification: String, Sendable, Hashable, CaseIterable {
    case basicVerificationSuccessful = "BASIC_VERIFICATION_SUCCESSFUL"
    case externalVerificationSuccessful = "EXTERNAL_VERIFICATION_SUCCESSFUL"
    case externalVerificationDeclined = "EXTERNAL_VERIFICATION_DECLINED"
    case externalVerificationDeclinedExpiredCard = "EXTERNAL_VERIFICATION_DECLINED_EXPIRED_CARD"
    case externalVerificationDeclinedInvalidCSC = "EXTERNAL_VERIFICATION_DECLINED_INVALID_CSC"
    case externalVerificationProcessingError = "EXTERNAL_VERIFICATION_PROCESSING_ERROR"
    case noVerificationPerformed = "NO_VERIFICATION_PERFORMED"

    /// What the acquirer's answer to the VERIFY of an ACQUIRER strategy means for the token.
    package init(acquirer outcome: AcquirerOutcome) {
        if outcome.succeeded, outcome.securityCodeResult != .noMatch {
            self = .externalVerificationSuccessful
            return
        }
        switch outcome.gatewayCode {
        case .approved, .approvedAuto, .approvedPendingSettlement, .partiallyApproved:
            // Approved, but its security code did not match: not a card to keep.
            self = .externalVerificationDeclinedInvalidCSC
        case .expiredCard: self = .externalVerificationDeclinedExpiredCard
        case .declined, .blocked, .cancelled: self = .externalVerificationDeclined
        case .pending, .submitted, .unknown, .timedOut, .unspecifiedFailure, .systemError, .acquirerSystemError:
            self = .externalVerificationProcessingError
        }
    }

    /// Only a card that passed its verification (or needed none) is stored.
    package var storesCard: Bool {
        switch self {
        case .basicVerificationSuccessful, .externalVerificationSuccessful, .noVerificationPerformed: true
        default: false
        }
    }
}
