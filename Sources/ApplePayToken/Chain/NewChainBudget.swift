import Foundation
import Synchronization

/// How many certificate chains the decryptor has not seen before it verifies per second.
///
/// A new chain costs a P-384 verification or two (about 1.1 ms each, three approvals' worth),
/// and a forger makes a new one by changing any byte of a token's intermediate. Real chains are
/// few and long-lived (Apple's intermediate changes every few years, a leaf every two), so a
/// small budget never holds back real tokens, while a flood of forgeries can take no more than
/// the budget's share of a core. A token bucket: `perSecond` chains, refilled continuously, by
/// the decryptor's clock (a clock set back refills nothing).
final class NewChainBudget: Sendable {
    private struct State {
        var available: Double
        var refilledAt: Date
    }

    let perSecond: Int
    private let clock: @Sendable () -> Date
    private let state: Mutex<State>

    init(perSecond: Int, clock: @escaping @Sendable () -> Date = { Date() }) {
        precondition(perSecond > 0, "a budget of new chains must allow at least one per second")
        self.perSecond = perSecond
        self.clock = clock
        state = Mutex(State(available: Double(perSecond), refilledAt: clock()))
    }

    /// Takes one chain's verification from the budget; throws when none is left.
    func spend() throws(ApplePayTokenError) {
        let now = clock()
        let spent = state.withLock { state in
            let elapsed = max(0, now.timeIntervalSince(state.refilledAt))
            state.available = min(Double(perSecond), state.available + elapsed * Double(perSecond))
            state.refilledAt = max(state.refilledAt, now)
            guard state.available >= 1 else { return false }
            state.available -= 1
            return true
        }
        guard spent else {
            throw ApplePayTokenError(
                .verificationBusy,
                "the signature's certificate chain is new, and \(perSecond) new chains a second are verified at most; "
                    + "retry in a second (a chain once verified costs nothing more)"
            )
        }
    }
}
