/// The acquirer's answer, as MPGS reports it.
package struct AcquirerOutcome: Sendable, Hashable {
    package var gatewayCode: GatewayCode
    package var acquirerCode: String?
    package var acquirerMessage: String?
    /// What was actually authorized (below the amount for PARTIALLY_APPROVED).
    package var authorizedMinorUnits: Int64
    /// Approvals only.
    package var authorizationCode: String?
    package var receipt: String?
    package var stan: String?
    /// Plain cards with a security code.
    package var securityCodeResult: SecurityCodeResult?

    package init(
        gatewayCode: GatewayCode,
        acquirerCode: String? = nil,
        acquirerMessage: String? = nil,
        authorizedMinorUnits: Int64
    ) {
        self.gatewayCode = gatewayCode
        self.acquirerCode = acquirerCode
        self.acquirerMessage = acquirerMessage
        self.authorizedMinorUnits = authorizedMinorUnits
    }

    /// A payment the risk rules rejected: not sent to the acquirer, so no acquirer code.
    package static let blockedByRisk = AcquirerOutcome(gatewayCode: .blocked, authorizedMinorUnits: 0)

    package var result: TransactionResult { gatewayCode.result }

    package var succeeded: Bool { result == .success }
}

/// What the card's security code check found.
package enum SecurityCodeResult: String, Sendable, Hashable {
    case match = "MATCH"
    case notProcessed = "NOT_PROCESSED"
    case noMatch = "NO_MATCH"
}
