/// What the acquirer is asked: an authorization or a payment for an amount on a card.
struct AcquirerRequest: Sendable {
    var operation: PaymentRequest.Operation
    var amount: Amount
    var cardNumber: String
    var expiry: CardExpiry
    /// Plain cards only: the security code the payer typed.
    var securityCode: String?
    /// Device payments (Apple Pay): authenticated by a cryptogram, not by expiry or CSC.
    var isDevicePayment: Bool
}

/// The acquirer's answer, as MPGS reports it.
struct AcquirerOutcome: Sendable, Hashable {
    var gatewayCode: String
    var acquirerCode: String?
    var acquirerMessage: String?
    /// What was actually authorized (below the amount for PARTIALLY_APPROVED).
    var authorizedMinorUnits: Int64
    /// Approvals only.
    var authorizationCode: String?
    var receipt: String?
    var stan: String?
    /// Plain cards with a security code: MATCH, NOT_PROCESSED or NO_MATCH.
    var securityCodeResult: String?

    /// MPGS's `result` for the gateway code.
    var result: String {
        switch gatewayCode {
        case "APPROVED", "APPROVED_AUTO", "APPROVED_PENDING_SETTLEMENT", "PARTIALLY_APPROVED": "SUCCESS"
        case "PENDING", "SUBMITTED": "PENDING"
        case "UNKNOWN": "UNKNOWN"
        default: "FAILURE"
        }
    }

    var succeeded: Bool { result == "SUCCESS" }
}

/// Decides transactions. The gateway ships a simulator; a real acquirer connection would
/// implement the same protocol.
protocol Acquirer: Sendable {
    func process(_ request: AcquirerRequest) async -> AcquirerOutcome

    /// A CAPTURE, REFUND or VOID of `amount` on an order the acquirer already knows.
    func processFollowOn(type: String, amount: Amount) async -> AcquirerOutcome
}
