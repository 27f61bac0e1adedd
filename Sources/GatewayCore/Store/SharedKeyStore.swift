import ApplePayToken
import Crypto

/// A key every replica sharing a store must hold the same of (the request fingerprint key, the
/// session sealing key, the sandbox authority), named by its configuration key.
///
/// The store keeps a check value of it, never the key: HMAC-SHA256 keyed by the key over a label
/// naming it, so the value says nothing about the key (a plain hash of a short key could be
/// searched). Where the gateway generated the key itself in sandbox mode the store keeps the key
/// too, so later replicas adopt it with no set-up.
package struct SharedKey: Sendable, Equatable {
    package let name: String
    package let checkValue: [UInt8]
    /// What later replicas adopt; nil for a configured key (and for everything in production).
    package let secret: [UInt8]?

    /// - Parameters:
    ///   - material: what the check value is of: the key, or the authority's root certificate.
    ///   - secret: what the store keeps for later replicas to adopt, if anything.
    package init(name: String, material: [UInt8], secret: [UInt8]?) {
        self.init(name: name, checkValue: Self.checkValue(of: material, name: name), secret: secret)
    }

    /// As a store reads it back.
    package init(name: String, checkValue: [UInt8], secret: [UInt8]?) {
        self.name = name
        self.checkValue = checkValue
        self.secret = secret
    }

    /// 16 bytes: enough that two keys never share one by chance.
    package static func checkValue(of material: [UInt8], name: String) -> [UInt8] {
        let label = Array("gateway key check v1 \(name)".utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: label, using: SymmetricKey(data: material)).prefix(16))
    }

    /// The check value as the start-up refusal prints it.
    package var checkValueText: String { Hex.encode(checkValue) }
}

/// Where replicas sharing a store settle their shared keys at start-up: the first to start
/// records each, the others compare (``SharedKeyStore/agree(on:)``) or adopt
/// (``SharedKeyStore/adopt(named:materialOf:generate:)``).
package protocol SharedKeyStore: Sendable {
    /// Keeps `key` unless one of its name is kept already, in one atomic step; returns the one
    /// kept, so of replicas racing the first wins and all see its key.
    func claimSharedKey(_ key: SharedKey) async throws -> SharedKey

    /// The key kept under `name`, if any.
    func sharedKey(named name: String) async throws -> SharedKey?
}

/// Why a replica may not use a store: it would silently disagree with the replicas before it.
package struct SharedKeyDisagreement: Error, Equatable {
    package enum Kind: Sendable, Equatable {
        /// This replica's key is not the one the store was first used with.
        case differs(kept: SharedKey, ours: SharedKey)
        /// The store was first used with a configured key, which it does not keep: this replica
        /// has none configured and cannot adopt it.
        case notAdoptable(kept: SharedKey)
        /// The kept key does not match its own check value (the row was edited by hand).
        case damaged(kept: SharedKey)
    }

    package let kind: Kind
    package var name: String {
        switch kind {
        case .differs(let kept, _), .notAdoptable(let kept), .damaged(let kept): kept.name
        }
    }
}

extension SharedKeyStore {
    /// Records the key's check value, or compares it with the one recorded first.
    @discardableResult
    package func agree(on key: SharedKey) async throws -> SharedKey {
        let kept = try await claimSharedKey(key)
        guard kept.checkValue == key.checkValue else { throw SharedKeyDisagreement(kind: .differs(kept: kept, ours: key)) }
        return kept
    }

    /// The secret kept under `name`; when none is, `generate()`'s, kept for every later replica
    /// (of replicas racing, the first's). `materialOf` gives what a secret's check value is of.
    package func adopt(
        named name: String,
        materialOf: ([UInt8]) throws -> [UInt8] = { $0 },
        generate: () throws -> [UInt8]
    ) async throws -> [UInt8] {
        let kept: SharedKey
        if let found = try await sharedKey(named: name) {
            kept = found
        } else {
            let secret = try generate()
            kept = try await claimSharedKey(SharedKey(name: name, material: try materialOf(secret), secret: secret))
        }
        guard let secret = kept.secret else { throw SharedKeyDisagreement(kind: .notAdoptable(kept: kept)) }
        guard (try? SharedKey.checkValue(of: materialOf(secret), name: name)) == kept.checkValue else {
            throw SharedKeyDisagreement(kind: .damaged(kept: kept))
        }
        return secret
    }
}
