import Foundation

/// Everything one processed transaction changes, as the core decided it: the stores write
/// these values and check these preconditions, and decide nothing else.
package struct TransactionRecord: Sendable {
    /// The transaction itself, typed: the stores keep it column by column.
    package var receipt: TransactionReceipt
    package var operation: APIOperation
    package var requestHash: [UInt8]
    /// The bytes the calling API answered with, for its identical retries.
    package var response: StoredResponse
    package var eciIndicator: String?
    /// The Apple Pay token this transaction used, if any: recorded, and refused if recorded before.
    package var applePayReplay: ApplePayReplayKey?
    /// AUTHORIZE, PAY or VERIFY: the transaction that opens the order. Precondition: no initial
    /// transaction on the order has succeeded.
    package var isInitial: Bool
    /// A successful VOID marks its target voided.
    package var voidsTarget: Bool
    /// Precondition: the order version the transaction was decided on; nil when there was no order yet.
    package var expectedOrderVersion: Int64?
    /// The webhook notification queued with the transaction (the outbox row is written in the
    /// same store transaction); nil: none.
    package var notification: QueuedNotification? = nil

    package init(
        receipt: TransactionReceipt,
        operation: APIOperation,
        requestHash: [UInt8],
        response: StoredResponse,
        eciIndicator: String?,
        applePayReplay: ApplePayReplayKey?,
        isInitial: Bool,
        voidsTarget: Bool,
        expectedOrderVersion: Int64?
    ) {
        self.receipt = receipt
        self.operation = operation
        self.requestHash = requestHash
        self.response = response
        self.eciIndicator = eciIndicator
        self.applePayReplay = applePayReplay
        self.isInitial = isInitial
        self.voidsTarget = voidsTarget
        self.expectedOrderVersion = expectedOrderVersion
    }

    package var merchantId: String {
        get { receipt.merchantId }
        set { receipt.merchantId = newValue }
    }
    package var orderId: String {
        get { receipt.orderId }
        set { receipt.orderId = newValue }
    }
    package var transactionId: String {
        get { receipt.transactionId }
        set { receipt.transactionId = newValue }
    }
    package var transactionType: TransactionType {
        get { receipt.transactionType }
        set { receipt.transactionType = newValue }
    }
    package var targetTransactionId: String? {
        get { receipt.targetTransactionId }
        set { receipt.targetTransactionId = newValue }
    }
    package var amountMinorUnits: Int64 { receipt.amount.minorUnits }
    package var currency: String { receipt.amount.currency.code }
    package var gatewayCode: GatewayCode { receipt.outcome.gatewayCode }
    package var result: TransactionResult { receipt.outcome.result }
    package var succeeded: Bool { receipt.outcome.succeeded }
    package var time: Date {
        get { receipt.time }
        set { receipt.time = newValue }
    }
    /// The order as it stands after this transaction.
    package var order: OrderState {
        get { receipt.order }
        set { receipt.order = newValue }
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

    /// What a retry of this transaction finds in the store.
    package var stored: StoredTransaction {
        StoredTransaction(requestHash: requestHash, response: response, receipt: receipt)
    }
}

extension TransactionRecord {
    /// The record of an order's first transaction (a declined one's retry included): its stored
    /// response, written on `existingOrder`'s version (nil: a new order), notifying where the
    /// request's `order.notificationUrl` or the merchant's settings say.
    package static func orderOpening(
        _ receipt: TransactionReceipt,
        operation: APIOperation,
        context: TransactionContext,
        existingOrder: StoredOrder?,
        notificationURL: String?,
        eciIndicator: String? = nil,
        replay: ApplePayReplayKey? = nil
    ) -> TransactionRecord {
        var record = TransactionRecord(
            receipt: receipt,
            operation: operation,
            requestHash: context.fingerprint.value,
            response: StoredResponse(format: context.encoding.format, bytes: context.encoding.encode(receipt)),
            eciIndicator: eciIndicator,
            applePayReplay: replay,
            isInitial: true,
            voidsTarget: false,
            expectedOrderVersion: existingOrder?.version
        )
        record.notification = QueuedNotification.route(requestURL: notificationURL, orderURL: nil, merchant: context.merchant.notifications)
        return record
    }
}
