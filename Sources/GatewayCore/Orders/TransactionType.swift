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

    // UPDATE_AUTHORIZATION (issue 30): the reference's type for a changed authorized amount.
    case authorizationUpdate = "AUTHORIZATION_UPDATE"

    /// The type of a VOID of this transaction; nil for what cannot be voided.
    package var voidType: TransactionType? {
        switch self {
        case .authorization: .voidAuthorization
        case .capture: .voidCapture
        case .payment: .voidPayment
        case .refund: .voidRefund
        case .verification, .voidAuthorization, .voidCapture, .voidPayment, .voidRefund: nil
        // Voiding the AUTHORIZATION cancels the authorization however often it was updated.
        case .authorizationUpdate: nil
        }
    }
}

/// MPGS's `apiOperation`: what a client asks for. One type for every operation, whose cases say
/// which processor takes it: a front end switches on them instead of bridging enums by their text.
package enum APIOperation: Sendable, Hashable, CaseIterable, RawRepresentable {
    /// AUTHORIZE, PAY or VERIFY: opens the order.
    case initial(PaymentRequest.Operation)
    /// CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION: acts on the order as stored.
    case followOn(FollowOnRequest.Operation)
    /// INITIATE_AUTHENTICATION or AUTHENTICATE_PAYER: 3-D Secure, before the payment.
    case authentication(AuthenticationOperation)
    /// INITIATE_BROWSER_PAYMENT (issue 64): a payment the payer approves at a provider's page.
    case browserPayment(BrowserPaymentOperation)

    package static let authorize = APIOperation.initial(.authorize)
    package static let pay = APIOperation.initial(.pay)
    package static let verify = APIOperation.initial(.verify)
    package static let capture = APIOperation.followOn(.capture)
    package static let refund = APIOperation.followOn(.refund)
    package static let void = APIOperation.followOn(.void)
    package static let updateAuthorization = APIOperation.followOn(.updateAuthorization)

    package static let allCases: [APIOperation] =
        PaymentRequest.Operation.allCases.map(initial) + FollowOnRequest.Operation.allCases.map(followOn)
        + AuthenticationOperation.allCases.map(authentication) + BrowserPaymentOperation.allCases.map(browserPayment)

    /// The operation as MPGS spells it (`AUTHORIZE`, ...); nil for any other text.
    package init?(rawValue: String) {
        if let operation = PaymentRequest.Operation(rawValue: rawValue) {
            self = .initial(operation)
        } else if let operation = FollowOnRequest.Operation(rawValue: rawValue) {
            self = .followOn(operation)
        } else if let operation = AuthenticationOperation(rawValue: rawValue) {
            self = .authentication(operation)
        } else if let operation = BrowserPaymentOperation(rawValue: rawValue) {
            self = .browserPayment(operation)
        } else {
            return nil
        }
    }

    package var rawValue: String {
        switch self {
        case .initial(let operation): operation.rawValue
        case .followOn(let operation): operation.rawValue
        case .authentication(let operation): operation.rawValue
        case .browserPayment(let operation): operation.rawValue
        }
    }
}
