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
    private enum Kind: UInt8 {
        /// HMAC over the canonical request without its security codes.
        case keyed = 1
        /// HMAC over an unkeyed SHA-256 that an earlier release stored (with the security code).
        case sealedLegacy = 2
    }

    private static let legacyLabel = Array("legacy-v1".utf8)
    private let key: SymmetricKey

    package init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
    }

    /// - Parameters:
    ///   - canonical: the request as this release fingerprints it, without security codes.
    ///   - legacyHashInput: the bytes an earlier release hashed, so a retry of a transaction it
    ///     recorded still finds its stored response.
    package func fingerprint(canonical: [UInt8], legacyHashInput: [UInt8]) -> RequestFingerprint {
        RequestFingerprint(
            value: mac(.keyed, canonical),
            legacyValue: sealLegacy(unkeyedHash: Array(SHA256.hash(data: legacyHashInput)))
        )
    }

    /// What an earlier release's stored SHA-256 becomes: keyed, so it no longer reveals the card.
    package func sealLegacy(unkeyedHash: [UInt8]) -> [UInt8] {
        mac(.sealedLegacy, Self.legacyLabel + unkeyedHash)
    }

    /// Whether a stored fingerprint is an earlier release's unkeyed hash, still to be sealed.
    package static func isUnsealedLegacy(_ stored: [UInt8]) -> Bool { stored.count == SHA256.byteCount }

    private func mac(_ kind: Kind, _ message: [UInt8]) -> [UInt8] {
        [kind.rawValue] + Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }
}

/// A request's fingerprint, in this release's form and in the form a sealed legacy record has.
package struct RequestFingerprint: Sendable, Hashable {
    /// What this release stores.
    package var value: [UInt8]
    package var legacyValue: [UInt8]

    package init(value: [UInt8], legacyValue: [UInt8]) {
        self.value = value
        self.legacyValue = legacyValue
    }

    /// Whether a stored fingerprint is this request's, in constant time.
    package func matches(_ stored: [UInt8]) -> Bool {
        constantTimeEqual(stored, value) || constantTimeEqual(stored, legacyValue)
    }
}

private func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
}
