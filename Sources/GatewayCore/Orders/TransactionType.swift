/// MPGS's `transaction.type`: what a recorded transaction did.
package enum TransactionType: String, Sendable, Hashable, CaseIterable {
    case authorization = "AUTHORIZATION"
    case payment = "PAYMENT"
    case verification = "VERIFICATION"
    case capture = "CAPTURE"
    case refund = "REFUND"
    case voidAuthorization = "VOID_AUTHORIZATION"
    case voidCapture = "VOID_CAPTURE"
    case voidPayment = "VOID_PAYMENT"
    case voidRefund = "VOID_REFUND"

    /// The type of a VOID of this transaction; nil for what cannot be voided.
    package var voidType: TransactionType? {
        switch self {
        case .authorization: .voidAuthorization
        case .capture: .voidCapture
        case .payment: .voidPayment
        case .refund: .voidRefund
        case .verification, .voidAuthorization, .voidCapture, .voidPayment, .voidRefund: nil
        }
    }
}

/// MPGS's `apiOperation`: what a client asks for.
package enum APIOperation: String, Sendable, Hashable, CaseIterable {
    case authorize = "AUTHORIZE"
    case pay = "PAY"
    case verify = "VERIFY"
    case capture = "CAPTURE"
    case refund = "REFUND"
    case void = "VOID"
}
