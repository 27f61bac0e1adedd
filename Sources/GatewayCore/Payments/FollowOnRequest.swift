/// CAPTURE, REFUND or VOID on an existing order, validated.
package struct FollowOnRequest: Sendable, Hashable {
    package enum Operation: String, Sendable, CaseIterable {
        case capture = "CAPTURE"
        case refund = "REFUND"
        case void = "VOID"

        package var apiOperation: APIOperation { .followOn(self) }
    }

    package var operation: Operation
    /// CAPTURE and REFUND: how much.
    package var amount: Amount?
    /// VOID (required) and REFUND (optional): the transaction it applies to.
    package var targetTransactionId: String?
    package var transactionReference: String?
    package var transactionSource: String
    package var echo: RequestEcho

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
