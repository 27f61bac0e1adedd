import Dispatch
import GatewayCore

/// A store that records how long each call to the store it wraps takes, by operation.
package struct TimedTransactionStore: TransactionStore {
    let base: any TransactionStore
    let metrics: GatewayMetrics

    package init(base: any TransactionStore, metrics: GatewayMetrics) {
        self.base = base
        self.metrics = metrics
    }

    package func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction? {
        try await timed("transaction") {
            try await base.transaction(merchantId: merchantId, orderId: orderId, transactionId: transactionId)
        }
    }

    package func order(merchantId: String, orderId: String) async throws -> StoredOrder? {
        try await timed("order") { try await base.order(merchantId: merchantId, orderId: orderId) }
    }

    package func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary] {
        try await timed("transactions") { try await base.transactions(merchantId: merchantId, orderId: orderId) }
    }

    package func isApplePayTokenUsed(_ key: ApplePayReplayKey) async throws -> Bool {
        try await timed("replay_check") { try await base.isApplePayTokenUsed(key) }
    }

    package func record(_ record: TransactionRecord) async throws -> RecordOutcome {
        try await timed("record") { try await base.record(record) }
    }

    package func checkReachable() async throws {
        try await timed("ping") { try await base.checkReachable() }
    }

    package func prepare() async throws {
        try await base.prepare()
    }

    package func close() async {
        await base.close()
    }

    private func timed<Value>(_ operation: String, _ body: () async throws -> Value) async throws -> Value {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { metrics.store(operation: operation, nanoseconds: elapsedNanoseconds(since: start)) }
        do {
            return try await body()
        } catch let error as StoreUnavailable {
            metrics.storeUnavailable(operation: operation, cause: error.cause)
            throw error
        }
    }
}
