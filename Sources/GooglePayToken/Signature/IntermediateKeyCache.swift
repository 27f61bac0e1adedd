import Crypto
import Foundation
import Synchronization

/// Intermediate signing keys whose root signature has verified, by the exact key and signatures
/// a token carried. Google signs one intermediate key for many tokens, so a warm token skips the
/// root's verification and reading the key; it still costs the message verification and ECDH.
///
/// Keyed by the protocol version, the `signedKey` text and every signature: a token that changes
/// any of them misses and is checked in full, so a hit answers exactly as the check would. The
/// roots are the decryptor's own (one cache per decryptor). Failures are never stored (junk
/// must not evict good keys). Bounded: once full, the oldest entry makes room. Thread-safe.
final class IntermediateKeyCache: Sendable {
    struct Key: Hashable {
        let protocolVersion: GooglePaymentMethodToken.ProtocolVersion
        let intermediate: GooglePaymentMethodToken.IntermediateSigningKey

        // The signatures as whole buffers: the synthesized hash fed them to the hasher a byte at a time.
        func hash(into hasher: inout Hasher) {
            hasher.combine(protocolVersion)
            hasher.combine(intermediate.signedKey)
            for signature in intermediate.signatures {
                hasher.combine(signature.count)
                signature.withUnsafeBytes { hasher.combine(bytes: $0) }
            }
        }
    }

    /// A key a root signed, read once.
    struct Entry {
        let publicKey: P256.Signing.PublicKey
        let keyExpiration: Date
        /// When the root that signed it stops being trusted (so then does the verdict).
        let rootExpiration: Date?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var insertionOrder: [Key] = []
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    /// The verified key, unless the root that signed it has expired at `now`.
    func lookup(_ key: Key, at now: Date) -> Entry? {
        guard let entry = state.withLock({ $0.entries[key] }) else { return nil }
        if let rootExpiration = entry.rootExpiration, now >= rootExpiration { return nil }
        return entry
    }

    func store(_ entry: Entry, for key: Key) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.entries.updateValue(entry, forKey: key) == nil else { return }
            state.insertionOrder.append(key)
            if state.insertionOrder.count > capacity {
                state.entries.removeValue(forKey: state.insertionOrder.removeFirst())
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
