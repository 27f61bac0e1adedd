import Synchronization

/// Wakes the delivery loop as soon as a transaction with a notification commits, so the
/// notification does not wait out the loop's poll interval. The poll stays: it finds what other
/// replicas queued and retries falling due.
package final class NotificationDoorbell: Sendable {
    private struct State {
        /// Rung while nobody waited: the next wait returns at once.
        var rung = false
        var waiter: CheckedContinuation<Bool, Never>?
        /// Which wait a timer belongs to, so a late timer never ends a later wait.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    package func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// Whether it rang since the last wait or take, without waiting; clears the ring.
    package func takeRing() -> Bool {
        state.withLock { state in
            defer { state.rung = false }
            return state.rung
        }
    }

    /// Returns at the next ring (at once if it rang since the last wait), after `timeout`, or
    /// when the task is cancelled. One waiter at a time (the delivery loop). False when the
    /// timeout ended it.
    @discardableResult
    package func wait(timeout: Duration) async -> Bool {
        await withTaskCancellationHandler {
            await waitForRing(timeout: timeout)
        } onCancel: {
            ring()
        }
    }

    private func waitForRing(timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let waiting = state.withLock { state -> UInt64? in
                if state.rung {
                    state.rung = false
                    return nil
                }
                state.generation += 1
                state.waiter = continuation
                return state.generation
            }
            guard let waiting else { return continuation.resume(returning: true) }
            Task { [self] in
                try? await Task.sleep(for: timeout)
                timedOut(waiting)
            }
        }
    }

    private func timedOut(_ generation: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.generation == generation, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: false)
    }
}
