import Foundation

/// Where orders, transactions (with the exact response returned) and used Apple Pay
/// transaction ids live. The service keeps nothing else: replicas share a store.
///
/// A store decides nothing: the core hands it a ``TransactionRecord`` whose every value was
/// decided by ``OrderLedger`` and the processors, and the store applies it atomically, with the
/// record's preconditions (the order version it was decided on) checked in the same step.
package protocol TransactionStore: Sendable {
    /// A transaction already processed under these identifiers, if any.
    func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction?

    /// The order, if any transaction has been recorded on it.
    func order(merchantId: String, orderId: String) async throws -> StoredOrder?

    /// Every transaction recorded on the order, oldest first.
    func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary]

    /// Whether an Apple Pay token with this replay key has been accepted before.
    func isApplePayTokenUsed(_ key: ApplePayReplayKey) async throws -> Bool

    /// Writes the order, the transaction and the replay record in one database transaction.
    func record(_ record: TransactionRecord) async throws -> RecordOutcome

    /// Gets ready to serve (brings the schema up to date), so start-up fails early.
    func prepare() async throws

    /// Throws unless the store answers a read now (readiness).
    func checkReachable() async throws

    /// Finishes the writes already accepted and releases the database; later calls fail.
    func close() async
}

// No default `prepare()` or `checkReachable()`: a wrapper that forgot to forward `prepare()`
// silently skipped PostgreSQL's migrations before the server started, and a readiness probe
// written as a fake replay lookup said nothing about the tables orders are read from.
extension TransactionStore {
    package func close() async {}
}

/// A transaction already recorded under a request's identifiers: what a retry must match, the
/// answer it gets, and the transaction itself, typed.
package struct StoredTransaction: Sendable, Hashable {
    package var requestHash: [UInt8]
    package var response: StoredResponse
    package var receipt: TransactionReceipt

    package init(requestHash: [UInt8], response: StoredResponse, receipt: TransactionReceipt) {
        self.requestHash = requestHash
        self.response = response
        self.receipt = receipt
    }

    /// The answer in `encoding`'s format: the stored bytes when that API gave them, else rendered
    /// from the receipt (a transaction another API recorded, or an earlier release's MPGS bytes).
    package func responseBody(in encoding: any TransactionResponseEncoding) -> [UInt8] {
        response.format == encoding.format ? response.bytes : encoding.encode(receipt)
    }
}

/// A recorded transaction, as follow-on operations and order retrieval need it: typed, with
/// whether a later VOID has voided it.
package struct TransactionSummary: Sendable, Hashable {
    package var receipt: TransactionReceipt
    package var voided: Bool

    package init(receipt: TransactionReceipt, voided: Bool) {
        self.receipt = receipt
        self.voided = voided
    }

    package var transactionId: String { receipt.transactionId }
    package var type: TransactionType { receipt.transactionType }
    package var amountMinorUnits: Int64 { receipt.amount.minorUnits }
    package var succeeded: Bool { receipt.outcome.succeeded }
}

package struct StoredOrder: Sendable, Hashable {
    /// Increases with every recorded transaction: a write based on an older read is refused.
    package var version: Int64
    package var state: OrderState
    package var lastUpdatedTime: Date
    /// An AUTHORIZE or PAY on this order has succeeded: no other initial transaction may follow.
    package var hasSuccessfulInitialTransaction: Bool

    package init(version: Int64, state: OrderState, lastUpdatedTime: Date, hasSuccessfulInitialTransaction: Bool) {
        self.version = version
        self.state = state
        self.lastUpdatedTime = lastUpdatedTime
        self.hasSuccessfulInitialTransaction = hasSuccessfulInitialTransaction
    }
}

package enum RecordOutcome: Sendable, Hashable {
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

/// A stored value this gateway cannot read (a column written by something else).
package struct UnreadableStoredValue: Error, CustomStringConvertible {
    package let column: String
    package let value: String
    package init(column: String, value: String) {
        self.column = column
        self.value = value
    }
    package var description: String { "the store holds '\(value.prefix(40))' in \(column), which this gateway cannot read" }
}
