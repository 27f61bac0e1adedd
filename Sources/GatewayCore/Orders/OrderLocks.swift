import Synchronization

/// Serializes the transactions of one order within this process: concurrent captures or
/// refunds on an order run one after the other, so none can be decided on a stale total.
/// (Across replicas, the order version in the store refuses a stale write instead.)
package final class OrderLocks: Sendable {
    package init() {}

    private let waiters = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    package func withLock<Value: Sendable>(_ key: String, _ body: () async throws -> Value) async throws -> Value {
        await acquire(key)
        do {
            let value = try await body()
            release(key)
            return value
        } catch {
            release(key)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        // Uncontended, as almost every order is: taken at once, without suspending the task (a
        // continuation resumed at once still sends the task back through the executor's queue).
        let taken = waiters.withLock { waiters in
            guard waiters[key] == nil else { return false }
            waiters[key] = []
            return true
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let owned = waiters.withLock { waiters in
                if waiters[key] == nil {
                    waiters[key] = []
                    return true
                }
                waiters[key]?.append(continuation)
                return false
            }
            if owned { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
            guard var queue = waiters[key], !queue.isEmpty else {
                waiters[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiters[key] = queue
            return next
        }
        next?.resume()
    }
}
