/// CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION on an existing order, validated.
package struct FollowOnRequest: Sendable, Hashable {
    package enum Operation: String, Sendable, CaseIterable {
        case capture = "CAPTURE"
        case refund = "REFUND"
        case void = "VOID"
        /// Changes the order's authorized amount to `amount`, the new total.
        case updateAuthorization = "UPDATE_AUTHORIZATION"

        package var apiOperation: APIOperation { .followOn(self) }
    }

    package var operation: Operation
    /// CAPTURE and REFUND: how much. UPDATE_AUTHORIZATION: the new total authorized amount.
    package var amount: Amount?
    /// VOID (required) and REFUND (optional): the transaction it applies to.
    package var targetTransactionId: String?
    package var transactionReference: String?
    package var transactionSource: String
    package var echo: RequestEcho
    /// `order.notificationUrl`: where this order's notifications go instead of the merchant's URL.
    package var notificationURL: String? = nil

    package init(
        operation: Operation,
        amount: Amount?,
        targetTransactionId: String?,
        transactionReference: String? = nil,
        transactionSource: String = "INTERNET",
        echo: RequestEcho = RequestEcho()
    ) {
        self.operation = operation
        self.amount = amount
        self.targetTransactionId = targetTransactionId
        self.transactionReference = transactionReference
        self.transactionSource = transactionSource
        self.echo = echo
    }
}
