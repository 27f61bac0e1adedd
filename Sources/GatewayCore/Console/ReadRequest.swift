import WireJSON

/// A transaction's request as the gateway read it, rebuilt from its receipt. The store keeps no
/// request bodies (they carry card numbers, cryptograms and security codes), so this is all the
/// console can honestly show of one: the typed fields the core acted on and the echoed fields
/// (billing, customer, shipping, ...) as received.
package struct ReadRequest: Sendable, Hashable {
    package var operation: APIOperation
    /// The amount the request named; nil for a VOID, which names none.
    package var amount: Amount?
    /// As the receipt keeps it: the number (and any device number) masked, no cryptogram or code.
    package var card: CardDetails
    package var source: String
    package var targetTransactionId: String?
    package var reference: String?
    /// The 3-D Secure authentication the AUTHORIZE or PAY referred to.
    package var authenticationTransactionId: String?
    /// The echoed fields as compact JSON (keys sorted); nil when the request had none.
    package var echoedFields: String?

    package init(_ receipt: TransactionReceipt) {
        operation = Self.operation(of: receipt.transactionType)
        amount = operation == .void ? nil : receipt.amount
        card = receipt.card
        source = receipt.transactionSource
        targetTransactionId = receipt.targetTransactionId
        reference = receipt.transactionReference
        authenticationTransactionId = receipt.authentication?.transactionId
        if case .object(let members) = receipt.echo.json, members.isEmpty {
            echoedFields = nil
        } else {
            // The front end masked free text before storing it; masking again is the last guard
            // between a card number typed into a description and the page.
            echoedFields = CardNumberRedaction.mask(String(decoding: receipt.echo.json.serialized(), as: UTF8.self))
        }
    }

    /// The operation that records a transaction of this type.
    private static func operation(of type: TransactionType) -> APIOperation {
        switch type {
        case .authorization: .authorize
        case .payment: .pay
        case .verification: .verify
        case .capture: .capture
        case .refund: .refund
        case .voidAuthorization, .voidCapture, .voidPayment, .voidRefund: .void
        case .authorizationUpdate: .updateAuthorization
        }
    }
}
