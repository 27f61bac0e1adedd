import Synchronization

/// The transactions this process has just recorded with a notification, kept for a moment so
/// the delivery loop sends each one's body without reading back what was just written: the read
/// and the render were about a quarter of a notification's cost. What it hands out is what the
/// store would return (the record's own receipt and response bytes). Bounded, oldest out first;
/// a miss (another replica's transaction, a retry, a restart) reads the store as before.
package final class JustRecordedTransactions: Sendable {
    private struct Key: Hashable {
        var merchantId: String
        var orderId: String
        var transactionId: String
    }

    private struct State {
        var transactions: [Key: StoredTransaction] = [:]
        /// Arrival order, for eviction; keys already taken are skipped when their turn comes.
        var arrivals: [Key] = []
        var oldest = 0

        mutating func dropTakenArrivals() {
            var kept: Set<Key> = []
            arrivals = arrivals[oldest...].filter { transactions[$0] != nil && kept.insert($0).inserted }
            oldest = 0
        }
    }

    private let state = Mutex(State())
    let capacity: Int

    package init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// Keeps a record the store has just committed as new (never a replayed answer).
    package func remember(_ record: TransactionRecord) {
        let receipt = record.receipt
        let key = Key(merchantId: receipt.merchantId, orderId: receipt.orderId, transactionId: receipt.transactionId)
        let stored = StoredTransaction(requestHash: record.requestHash, response: record.response, receipt: receipt)
        state.withLock { state in
            if state.transactions.updateValue(stored, forKey: key) == nil { state.arrivals.append(key) }
            // Taken keys leave their arrival behind: dropped once they pile up.
            if state.arrivals.count - state.oldest > 2 * capacity { state.dropTakenArrivals() }
            while state.transactions.count > capacity, state.oldest < state.arrivals.count {
                state.transactions[state.arrivals[state.oldest]] = nil
                state.oldest += 1
            }
            if state.oldest > capacity {
                state.arrivals.removeFirst(state.oldest)
                state.oldest = 0
            }
        }
    }

    /// The transaction, if it is still kept; it is handed out once.
    package func take(merchantId: String, orderId: String, transactionId: String) -> StoredTransaction? {
        let key = Key(merchantId: merchantId, orderId: orderId, transactionId: transactionId)
        return state.withLock { state in state.transactions.removeValue(forKey: key) }
    }

    package var count: Int { state.withLock { $0.transactions.count } }

    /// The eviction order's length (tests: it stays near the capacity).
    var arrivalsKept: Int { state.withLock { $0.arrivals.count - $0.oldest } }
}
