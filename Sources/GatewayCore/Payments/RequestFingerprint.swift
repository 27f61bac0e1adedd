import Crypto

/// Makes the fingerprint an identical retry must match, keyed so that a stored fingerprint says
/// nothing about the request without the key.
///
/// The fingerprint used to be an unkeyed SHA-256 of the whole request, card number and security
/// code included: with the BIN, last four and expiry from the stored response, the number (and
/// then the code) fell to a brute force in seconds. Now it is HMAC-SHA256 under a key kept outside
/// the store, over the request with every security code taken out (PCI DSS 3.2: no security code
/// in any form after authorization), tagged with its kind.
package struct RequestFingerprinter: Sendable {
    fileprivate enum Kind: UInt8 {
        /// HMAC over the canonical request without its security codes.
        case keyed = 1
        /// HMAC over an unkeyed SHA-256 that an earlier release stored (with the security code).
        case sealedLegacy = 2
    }

    private static let legacyLabel = Array("legacy-v1".utf8)
    /// HMAC with the key already absorbed: each request copies it, where keying a fresh one per
    /// request padded and hashed the key again, in eight allocations.
    private let keyed: HMAC<SHA256>

    package init(key: [UInt8]) {
        self.keyed = HMAC<SHA256>(key: SymmetricKey(data: key))
    }

    /// - Parameters:
    ///   - canonical: the request as this release fingerprints it, without security codes.
    ///   - legacyHashInput: the bytes an earlier release hashed, so a retry of a transaction it
    ///     recorded still finds its stored response. Made only for such a retry: serializing
    ///     and hashing the request a second time cost every request about 3% of its time.
    package func fingerprint(
        canonical: [UInt8],
        legacyHashInput: @escaping @Sendable () -> [UInt8]
    ) -> RequestFingerprint {
        RequestFingerprint(value: mac(.keyed, canonical)) {
            sealLegacy(unkeyedHash: Array(SHA256.hash(data: legacyHashInput())))
        }
    }

    /// What an earlier release's stored SHA-256 becomes: keyed, so it no longer reveals the card.
    package func sealLegacy(unkeyedHash: [UInt8]) -> [UInt8] {
        mac(.sealedLegacy, Self.legacyLabel + unkeyedHash)
    }

    /// Whether a stored fingerprint is an earlier release's unkeyed hash, still to be sealed.
    package static func isUnsealedLegacy(_ stored: [UInt8]) -> Bool { stored.count == SHA256.byteCount }

    private func mac(_ kind: Kind, _ message: [UInt8]) -> [UInt8] {
        var hmac = keyed
        hmac.update(data: message)
        return [kind.rawValue] + Array(hmac.finalize())
    }
}

/// A request's fingerprint, in this release's form, and in the form a sealed legacy record has
/// when a stored fingerprint asks for it.
package struct RequestFingerprint: Sendable {
    /// What this release stores.
    package var value: [UInt8]
    private let legacy: @Sendable () -> [UInt8]

    package init(value: [UInt8], legacyValue: @escaping @Sendable () -> [UInt8]) {
        self.value = value
        self.legacy = legacyValue
    }

    /// The form an earlier release's record has once sealed (computed on each call).
    package var legacyValue: [UInt8] { legacy() }

    /// Whether a stored fingerprint is this request's, in constant time. The legacy form is
    /// computed only for a stored fingerprint of that kind (its first byte says so).
    package func matches(_ stored: [UInt8]) -> Bool {
        if constantTimeEqual(stored, value) { return true }
        guard stored.first == RequestFingerprinter.Kind.sealedLegacy.rawValue else { return false }
        return constantTimeEqual(stored, legacyValue)
    }
}

private func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
}
