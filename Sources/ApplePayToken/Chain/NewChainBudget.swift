import Foundation
import Synchronization

/// How many certificate chains the decryptor has not seen before it verifies per second.
///
/// A new chain costs a P-384 verification or two (about 1.1 ms each, three approvals' worth),
/// and a forger makes a new one by changing any byte of a token's intermediate. Real chains are
/// few and long-lived (Apple's intermediate changes every few years, a leaf every two), so a
/// small budget never holds back real tokens, while a flood of forgeries can take no more than
/// the budget's share of a core.
///
/// Two token buckets of `perSecond` each, refilled continuously by the decryptor's clock (a
/// clock set back refills nothing): one for chains whose intermediate no root is yet known to
/// have signed (where forgeries land), one for new leaves under an intermediate already
/// verified. A leaf reaches the second only when that intermediate really signed it, so a flood
/// of forged intermediates cannot hold back Apple's next leaf.
final class NewChainBudget: Sendable {
    enum Kind: Int, Sendable {
        /// The chain's intermediate has not been verified before.
        case newIntermediate
        /// The intermediate is known to be signed by a trust root and has signed the leaf.
        case knownIntermediate
    }

    private struct Bucket {
        var available: Double
        var refilledAt: Date
    }

    let perSecond: Int
    private let clock: @Sendable () -> Date
    private let buckets: Mutex<[Bucket]>

    init(perSecond: Int, clock: @escaping @Sendable () -> Date = { Date() }) {
        precondition(perSecond > 0, "a budget of new chains must allow at least one per second")
        self.perSecond = perSecond
        self.clock = clock
        let full = Bucket(available: Double(perSecond), refilledAt: clock())
        buckets = Mutex([full, full])
    }

    /// Takes one chain's verification from the kind's budget; throws when none is left.
    func spend(_ kind: Kind) throws(ApplePayTokenError) {
        let now = clock()
        let spent = buckets.withLock { buckets in
            var bucket = buckets[kind.rawValue]
            defer { buckets[kind.rawValue] = bucket }
            let elapsed = max(0, now.timeIntervalSince(bucket.refilledAt))
            bucket.available = min(Double(perSecond), bucket.available + elapsed * Double(perSecond))
            bucket.refilledAt = max(bucket.refilledAt, now)
            guard bucket.available >= 1 else { return false }
            bucket.available -= 1
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
