import Foundation

/// Everything one processed transaction changes, as the core decided it: the stores write
/// these values and check these preconditions, and decide nothing else.
package struct TransactionRecord: Sendable {
    package var merchantId: String
    package var orderId: String
    package var transactionId: String
    package var operation: APIOperation
    package var requestHash: [UInt8]
    package var responseBody: [UInt8]
    package var result: TransactionResult
    package var gatewayCode: GatewayCode
    package var amountMinorUnits: Int64
    package var currency: String
    package var succeeded: Bool
    package var eciIndicator: String?
    /// The Apple Pay token this transaction used, if any: recorded, and refused if recorded before.
    package var applePayReplay: ApplePayReplayKey?
    package var time: Date
    /// AUTHORIZE, PAY or VERIFY: the transaction that opens the order. Precondition: no initial
    /// transaction on the order has succeeded.
    package var isInitial: Bool
    package var transactionType: TransactionType
    package var targetTransactionId: String?
    /// A successful VOID marks its target voided.
    package var voidsTarget: Bool
    /// Precondition: the order version the transaction was decided on; nil when there was no order yet.
    package var expectedOrderVersion: Int64?
    /// The order as it stands after this transaction.
    package var order: OrderState

    package init(
        merchantId: String,
        orderId: String,
        transactionId: String,
        operation: APIOperation,
        requestHash: [UInt8],
        responseBody: [UInt8],
        result: TransactionResult,
        gatewayCode: GatewayCode,
        amountMinorUnits: Int64,
        currency: String,
        succeeded: Bool,
        eciIndicator: String?,
        applePayReplay: ApplePayReplayKey?,
        time: Date,
        isInitial: Bool,
        transactionType: TransactionType,
        targetTransactionId: String?,
        voidsTarget: Bool,
        expectedOrderVersion: Int64?,
        order: OrderState
    ) {
        self.merchantId = merchantId
        self.orderId = orderId
        self.transactionId = transactionId
        self.operation = operation
        self.requestHash = requestHash
        self.responseBody = responseBody
        self.result = result
        self.gatewayCode = gatewayCode
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.succeeded = succeeded
        self.eciIndicator = eciIndicator
        self.applePayReplay = applePayReplay
        self.time = time
        self.isInitial = isInitial
        self.transactionType = transactionType
        self.targetTransactionId = targetTransactionId
        self.voidsTarget = voidsTarget
        self.expectedOrderVersion = expectedOrderVersion
        self.order = order
    }

    /// Whether this transaction is the order's successful AUTHORIZE or PAY, after which no other
    /// initial transaction may follow (a VERIFY moves no money, so another may follow it).
    package var opensOrder: Bool {
        isInitial && succeeded && transactionType != .verification
    }

    /// The transaction this one marks voided, if any.
    package var voidedTransactionId: String? {
        voidsTarget ? targetTransactionId : nil
    }
}
