import Dispatch
import Synchronization

/// Where console logins check passwords: one thread of their own, off the event loops, with a
/// bounded line.
///
/// PBKDF2 at 600,000 rounds takes a core for about 0.2 s. Run in the login's own task, it held
/// one of the event loops that long: a burst of 40 wrong passwords stalled every payment on the
/// loops for 0.6 s, and attempts from many addresses (each under its lockout) could keep them
/// stalled. Now password checks take at most one core between them. Once `capacity` checks are
/// waiting or running, or `perAddress` from the login's address, a login is refused at once,
/// without hashing: one address cannot hold the whole line against the other operators.
package final class PasswordCheckQueue: Sendable {
    private struct Line {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let queue = DispatchQueue(label: "gateway.console.password")
    private let line = Mutex(Line())
    package let capacity: Int
    package let perAddress: Int

    package init(capacity: Int = 8, perAddress: Int = 2) {
        self.capacity = capacity
        self.perAddress = perAddress
    }

    /// The places held now (checks waiting or running): what a test waits on instead of a sleep.
    package var placesTaken: Int { line.withLock { $0.total } }

    /// `check`'s result, computed on the queue; nil, without running it, when the line is full
    /// or holds `perAddress` checks from `address` already.
    package func run<Value: Sendable>(from address: String, _ check: @escaping @Sendable () -> Value) async -> Value? {
        await withPlace(from: address) { place in await place.check(check) }
    }

    /// Runs `body` holding a place in the line, given back when it returns; nil at once, without
    /// running it, when there is no place. A login takes its place before its attempt is counted,
    /// so a login the line refuses is neither counted nor checked.
    package func withPlace<Value: Sendable>(
        from address: String,
        _ body: (Place) async throws -> Value
    ) async rethrows -> Value? {
        let admitted = line.withLock { line in
            guard line.total < capacity, line.byAddress[address, default: 0] < perAddress else { return false }
            line.total += 1
            line.byAddress[address, default: 0] += 1
            return true
        }
        guard admitted else { return nil }
        defer {
            line.withLock { line in
                line.total -= 1
                line.byAddress[address, default: 1] -= 1
                if line.byAddress[address] == 0 { line.byAddress[address] = nil }
            }
        }
        return try await body(Place(queue: queue))
    }

    /// A place in the line: its checks run on the line's one thread.
    package struct Place: Sendable {
        fileprivate let queue: DispatchQueue

        package func check<Value: Sendable>(_ check: @escaping @Sendable () -> Value) async -> Value {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: check()) }
            }
        }
    }
}
