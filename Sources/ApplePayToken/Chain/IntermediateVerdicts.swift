import Crypto
import Synchronization

/// Which trust root signed an intermediate certificate, remembered by a digest of its bytes.
///
/// A signature verdict depends on the bytes alone, so it holds for good. Both outcomes are kept,
/// apart, so that junk intermediates cannot evict good ones: a good intermediate spares each new
/// leaf it issues the root's P-384 verification, and a forged one sent again is refused without
/// it. Bounded (oldest first out); safe to use from any thread.
final class IntermediateVerdicts: Sendable {
    typealias Key = SHA256Digest

    enum Verdict: Sendable {
        /// Signed by the trust root at this index.
        case signedByRoot(Int)
        /// Signed by none of the trust roots that bear its issuer's name.
        case unsigned
    }

    private struct State {
        var signed: BoundedMap<Key, Int>
        var unsigned: BoundedMap<Key, Void>
    }

    private let state: Mutex<State>

    init(capacity: Int) {
        state = Mutex(State(signed: BoundedMap(capacity: capacity), unsigned: BoundedMap(capacity: capacity)))
    }

    func verdict(for key: Key) -> Verdict? {
        state.withLock { state in
            if let root = state.signed[key] { return .signedByRoot(root) }
            return state.unsigned[key] == nil ? nil : .unsigned
        }
    }

    func record(_ verdict: Verdict, for key: Key) {
        state.withLock { state in
            switch verdict {
            case .signedByRoot(let root): state.signed.insert(root, for: key)
            case .unsigned: state.unsigned.insert((), for: key)
            }
        }
    }

    /// How many verdicts of each kind are remembered, for tests.
    var counts: (signed: Int, unsigned: Int) {
        state.withLock { ($0.signed.count, $0.unsigned.count) }
    }

    static func key(for intermediateDER: ArraySlice<UInt8>) -> Key {
        SHA256.hash(data: intermediateDER)
    }
}
