import Crypto
import Foundation
import Synchronization

/// One change an operator made to a merchant's API passwords in Merchant Administration. The
/// store keeps them as an append-only log; the password itself is never stored, only its SHA-256.
package struct APIPasswordChange: Sendable, Hashable {
    package enum Kind: String, Sendable, CaseIterable {
        /// A password generated in the console, active alongside the configured ones.
        case added = "ADDED"
        /// A password (configured or added) no longer accepted, even if the configuration names it.
        case retired = "RETIRED"
    }

    package var merchantId: String
    /// Lower-case hex SHA-256 of the password.
    package var digest: String
    package var kind: Kind
    package var operatorName: String
    package var time: Date

    package init(merchantId: String, digest: String, kind: Kind, operatorName: String, time: Date) {
        self.merchantId = merchantId
        self.digest = digest
        self.kind = kind
        self.operatorName = operatorName
        self.time = time
    }
}

/// A merchant's active API passwords: the configured ones, plus those generated in the console,
/// minus those retired there. At most two are active at once (the rotation the gateway allows:
/// add a second, move the merchant's servers to it, retire the first). Shared by every copy of
/// the `Merchant`, so a rotation takes effect for the API as soon as it is applied.
package final class MerchantPasswords: Sendable {
    /// Where an active password came from, for the console's list.
    package struct Active: Sendable, Hashable {
        package var digest: String
        /// Nil for a configured password.
        package var added: APIPasswordChange?
        /// The first eight hex digits of the digest: enough to tell two passwords apart, too
        /// few to find either.
        package var fingerprint: String { String(digest.prefix(8)) }
    }

    /// Why the console refused a rotation step.
    package enum RotationRejection: Error, Sendable, Hashable {
        /// Two are active already: retire one first.
        case twoActive
        /// The merchant's only active password cannot be retired.
        case lastActive
        /// No active password has that fingerprint.
        case notActive(String)
    }

    package static let limit = 2

    /// The active passwords, and their digests as bytes for the per-request check.
    private struct State {
        var active: [Active]
        var digests: [[UInt8]]

        init(_ active: [Active]) {
            self.active = active
            digests = active.map { MerchantPasswords.bytes(hex: $0.digest) }
        }
    }

    private let configured: [String]
    private let state: Mutex<State>

    package init(configured passwords: [String]) {
        configured = passwords.map(Self.digest(of:))
        state = Mutex(State(configured.map { Active(digest: $0) }))
    }

    /// A new API password in the form the configuration takes: 32 hexadecimal characters (128
    /// random bits).
    package static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    package static func digest(of password: String) -> String {
        SHA256.hash(data: Data(password.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    package var active: [Active] { state.withLock { $0.active } }

    /// Recomputes the active set from the store's log of this merchant's changes (oldest first).
    package func apply(_ changes: [APIPasswordChange]) {
        let retired = Set(changes.filter { $0.kind == .retired }.map(\.digest))
        var active = configured.filter { !retired.contains($0) }.map { Active(digest: $0) }
        for change in changes where change.kind == .added && !retired.contains(change.digest) {
            if let index = active.firstIndex(where: { $0.digest == change.digest }) {
                active[index].added = change
            } else {
                active.append(Active(digest: change.digest, added: change))
            }
        }
        state.withLock { $0 = State(active) }
    }

    /// A new password may be added only while one is active.
    package func checkAdd() throws(RotationRejection) {
        guard active.count < Self.limit else { throw .twoActive }
    }

    /// The digest of the active password with that fingerprint, which may be retired only while
    /// another one is active.
    package func checkRetire(fingerprint: String) throws(RotationRejection) -> String {
        let active = self.active
        guard let entry = active.first(where: { $0.fingerprint == fingerprint }) else { throw .notActive(fingerprint) }
        guard active.count > 1 else { throw .lastActive }
        return entry.digest
    }

    /// Compares digests in constant time, so the time taken says nothing about how much matched.
    package func accepts(digest candidate: SHA256Digest) -> Bool {
        candidate.withUnsafeBytes { candidate in
            state.withLock { state in
                var matched = false
                for digest in state.digests where Self.constantTimeEqual(digest, candidate) { matched = true }
                return matched
            }
        }
    }

    private static func constantTimeEqual(_ stored: [UInt8], _ candidate: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == candidate.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<stored.count { difference |= stored[index] ^ candidate[index] }
        return difference == 0
    }

    fileprivate static func bytes(hex: String) -> [UInt8] {
        var bytes = [UInt8]()
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = UInt8(String(UnicodeScalar(character)), radix: 16) else { continue }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
