/// What the acquirer is asked: an authorization or a payment for an amount on a card.
package struct AcquirerRequest: Sendable {
    package var operation: PaymentRequest.Operation
    package var amount: Amount
    package var cardNumber: String
    package var expiry: CardExpiry
    /// Plain cards only: the security code the payer typed.
    package var securityCode: String?
    /// Device payments (Apple Pay): authenticated by a cryptogram, not by expiry or CSC.
    package var isDevicePayment: Bool

    package init(
        operation: PaymentRequest.Operation,
        amount: Amount,
        cardNumber: String,
        expiry: CardExpiry,
        securityCode: String?,
        isDevicePayment: Bool
    ) {
        self.operation = operation
        self.amount = amount
        self.cardNumber = cardNumber
        self.expiry = expiry
        self.securityCode = securityCode
        self.isDevicePayment = isDevicePayment
    }
}

/// Decides transactions. The gateway ships a simulator; a real acquirer connection would
/// implement the same protocol.
package protocol Acquirer: Sendable {
    func process(_ request: AcquirerRequest) async -> AcquirerOutcome

    /// A CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION (`amount` the new total) on an order the
    /// acquirer already knows.
    func processFollowOn(type: TransactionType, amount: Amount) async -> AcquirerOutcome
}
