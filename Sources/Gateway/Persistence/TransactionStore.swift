import Foundation

/// Where orders, transactions (with the exact response returned) and used Apple Pay
/// transaction ids live. The service keeps nothing else: replicas share a store.
protocol TransactionStore: Sendable {
    /// A transaction already processed under these identifiers, if any.
    func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction?

    /// The order, if any transaction has been recorded on it.
    func order(merchantId: String, orderId: String) async throws -> StoredOrder?

    /// Every transaction recorded on the order, oldest first.
    func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary]

    /// Whether an Apple Pay token with this transactionId has been accepted before.
    func isApplePayTransactionUsed(_ applePayTransactionId: String) async throws -> Bool

    /// Writes the order, the transaction and the replay record in one database transaction.
    func record(_ record: TransactionRecord) async throws -> RecordOutcome

    /// Gets ready to serve (a shared database: connect and migrate), so start-up fails early.
    func prepare() async throws

    /// Throws unless the store answers a read now (readiness).
    func checkReachable() async throws

    /// Finishes the writes already accepted and releases the database; later calls fail.
    func close() async
}

extension TransactionStore {
    func prepare() async throws {}

    func checkReachable() async throws {
        _ = try await isApplePayTransactionUsed("")
    }

    func close() async {}
}

struct StoredTransaction: Sendable, Hashable {
    var requestHash: [UInt8]
    var responseBody: [UInt8]
}

/// A recorded transaction, as follow-on operations and order retrieval need it.
struct TransactionSummary: Sendable, Hashable {
    var transactionId: String
    /// AUTHORIZATION, PAYMENT, CAPTURE, REFUND, VOID_..., VERIFICATION.
    var type: String
    var amountMinorUnits: Int64
    var succeeded: Bool
    var voided: Bool
    var responseBody: [UInt8]
}

struct StoredOrder: Sendable, Hashable {
    /// Increases with every recorded transaction: a write based on an older read is refused.
    var version: Int64
    var state: OrderState
    var lastUpdatedTime: Date
    /// An AUTHORIZE or PAY on this order has succeeded: no other initial transaction may follow.
    var hasSuccessfulInitialTransaction: Bool
}

/// Everything one processed transaction changes.
struct TransactionRecord: Sendable {
    var merchantId: String
    var orderId: String
    var transactionId: String
    var operation: String
    var requestHash: [UInt8]
    var responseBody: [UInt8]
    var result: String
    var gatewayCode: String
    var amountMinorUnits: Int64
    var currency: String
    var succeeded: Bool
    var eciIndicator: String?
    var applePayTransactionId: String?
    var time: Date
    /// AUTHORIZE or PAY: the transaction that opens the order.
    var isInitial: Bool
    var transactionType: String
    var targetTransactionId: String?
    /// A successful VOID marks its target voided.
    var voidsTarget: Bool
    /// The order version the transaction was decided on; nil when there was no order yet.
    var expectedOrderVersion: Int64?
    /// The order as it stands after this transaction.
    var order: OrderState
}

struct OrderState: Sendable, Hashable {
    var amountMinorUnits: Int64
    var currency: String
    var status: String
    var totalAuthorizedMinorUnits: Int64
    var totalCapturedMinorUnits: Int64
    var totalRefundedMinorUnits: Int64
    var walletProvider: String?
    var reference: String?
    var creationTime: Date
}

enum RecordOutcome: Sendable, Hashable {
    case recorded
    /// Another request with these identifiers was recorded first.
    case duplicateTransaction(StoredTransaction)
    /// Another request used this Apple Pay token first.
    case applePayReplay
    /// An initial transaction on this order succeeded first (a race between two initial requests).
    case orderAlreadySucceeded
    /// Another transaction changed the order after this one was decided (another replica).
    case orderChanged
}
