import Synchronization

/// The transactions this process has just recorded with a notification, kept for a moment so
/// the delivery loop sends each one's body without reading back what was just written: the read
/// and the render were about a quarter of a notification's cost. What it hands out is what the
/// store would return (the record's own receipt and response bytes). Bounded: two generations of
/// half the capacity each, the older dropped whole when the newer fills, so one another replica
/// delivered (and this one never takes) ages out. A miss (another replica's transaction, a retry,
/// a restart) reads the store as before.
package final class JustRecordedTransactions: Sendable {
    private struct Key: Hashable {
        var merchantId: String
        var orderId: String
        var transactionId: String
    }

    private struct Generations {
        var newer: [Key: StoredTransaction] = [:]
        var older: [Key: StoredTransaction] = [:]
    }

    private let generations = Mutex(Generations())
    let capacity: Int

    package init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// Keeps a record the store has just committed as new (never a replayed answer).
    package func remember(_ record: TransactionRecord) {
        let receipt = record.receipt
        let key = Key(merchantId: receipt.merchantId, orderId: receipt.orderId, transactionId: receipt.transactionId)
        let stored = StoredTransaction(requestHash: record.requestHash, response: record.response, receipt: receipt)
        // The dropped generation is handed out of the lock and freed here: half the capacity's
        // records, not freed while the event loops wait on the lock.
        _ = generations.withLock { generations in
            var dropped: [Key: StoredTransaction] = [:]
            if generations.newer.count >= capacity / 2 {
                dropped = generations.older
                generations.older = generations.newer
                generations.newer = [:]
            }
            generations.newer[key] = stored
            return dropped
        }
    }

    /// The transaction, if it is still kept; it is handed out once.
    package func take(merchantId: String, orderId: String, transactionId: String) -> StoredTransaction? {
        let key = Key(merchantId: merchantId, orderId: orderId, transactionId: transactionId)
        return generations.withLock { generations in
            generations.newer.removeValue(forKey: key) ?? generations.older.removeValue(forKey: key)
        }
    }

    package var count: Int { generations.withLock { $0.newer.count + $0.older.count } }
}
