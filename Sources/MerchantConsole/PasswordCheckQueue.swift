import Dispatch
import Synchronization

/// Where console logins check passwords: one thread of their own, off the event loops, with a
/// bounded line.
///
/// PBKDF2 at 600,000 rounds takes a core for about 0.2 s. Run in the login's own task, it held
/// one of the event loops that long: a burst of 40 wrong passwords stalled every payment on the
/// loops for 0.6 s, and attempts from many addresses (each under its lockout) could keep them
/// stalled. Now password checks take at most one core between them, and once `capacity` checks
/// are waiting or running, a login is refused at once, without hashing.
package final class PasswordCheckQueue: Sendable {
    private let queue = DispatchQueue(label: "gateway.console.password")
    private let admitted = Atomic<Int>(0)
    package let capacity: Int

    package init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// `check`'s result, computed on the queue; nil, without running it, when the line is full.
    package func run<Value: Sendable>(_ check: @escaping @Sendable () -> Value) async -> Value? {
        guard admitted.wrappingAdd(1, ordering: .relaxed).newValue <= capacity else {
            admitted.wrappingSubtract(1, ordering: .relaxed)
            return nil
        }
        return await withCheckedContinuation { continuation in
            queue.async {
                let value = check()
                self.admitted.wrappingSubtract(1, ordering: .relaxed)
                continuation.resume(returning: value)
            }
        }
    }
}
