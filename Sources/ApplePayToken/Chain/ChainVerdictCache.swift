import Crypto
import Synchronization

/// Verified chains by a digest of their certificates and signer identifier.
///
/// Bounded: once full, the oldest entry makes room. Failures are never cached here (a chain that
/// failed may be retried at another time, and caching them would let junk evict good entries;
/// ``IntermediateVerdicts`` keeps the one failure that costs much to reach). Safe to use from
/// any thread.
final class ChainVerdictCache: Sendable {
    typealias Key = SHA256Digest

    private struct State {
        var chains: BoundedMap<Key, SignerChain>
        var hits = 0
        var misses = 0
    }

    private let state: Mutex<State>

    init(capacity: Int) {
        state = Mutex(State(chains: BoundedMap(capacity: capacity)))
    }

    func lookup(_ key: Key) -> SignerChain? {
        state.withLock { state in
            let found = state.chains[key]
            if found == nil { state.misses += 1 } else { state.hits += 1 }
            return found
        }
    }

    func store(_ chain: SignerChain, for key: Key) {
        state.withLock { $0.chains.insert(chain, for: key) }
    }

    var statistics: ChainCacheStatistics {
        state.withLock { ChainCacheStatistics(hits: $0.hits, misses: $0.misses, entries: $0.chains.count) }
    }

    /// The cache key: the signer identifier and every certificate, each length-prefixed.
    static func key(for signedData: CMSSignedData) -> Key {
        var hasher = SHA256()
        func feed(_ bytes: ArraySlice<UInt8>) {
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { hasher.update(bufferPointer: $0) }
            bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        feed(signedData.signer.identifierBytes)
        for certificate in signedData.certificates { feed(certificate) }
        return hasher.finalize()
    }
}

/// How well the chain cache is doing, for metrics.
public struct ChainCacheStatistics: Sendable, Hashable {
    public var hits: Int
    public var misses: Int
    public var entries: Int
}
