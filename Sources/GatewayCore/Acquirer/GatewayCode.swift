/// MPGS's `response.gatewayCode`: what happened to a transaction.
package enum GatewayCode: String, Sendable, Hashable, CaseIterable {
    case approved = "APPROVED"
    case approvedAuto = "APPROVED_AUTO"
    case approvedPendingSettlement = "APPROVED_PENDING_SETTLEMENT"
    case partiallyApproved = "PARTIALLY_APPROVED"
    case pending = "PENDING"
    case submitted = "SUBMITTED"
    case unknown = "UNKNOWN"
    case declined = "DECLINED"
    case expiredCard = "EXPIRED_CARD"
    case timedOut = "TIMED_OUT"
    case unspecifiedFailure = "UNSPECIFIED_FAILURE"
    case systemError = "SYSTEM_ERROR"
    case acquirerSystemError = "ACQUIRER_SYSTEM_ERROR"
    /// The merchant's risk rules rejected the payment: it never reached the acquirer.
    case blocked = "BLOCKED"
    /// The payer cancelled at the browser payment provider's page (issue 64).
    case cancelled = "CANCELLED"

    /// MPGS's `result` for the code.
    package var result: TransactionResult {
        switch self {
        case .approved, .approvedAuto, .approvedPendingSettlement, .partiallyApproved: .success
        case .pending, .submitted: .pending
        case .unknown: .unknown
        case .declined, .expiredCard, .timedOut, .unspecifiedFailure, .systemError, .acquirerSystemError, .blocked, .cancelled: .failure
        }
    }
}

/// MPGS's `result` of a transaction.
package enum TransactionResult: String, Sendable, Hashable, CaseIterable {
    case success = "SUCCESS"
    case pending = "PENDING"
    case unknown = "UNKNOWN"
    case failure = "FAILURE"
}
