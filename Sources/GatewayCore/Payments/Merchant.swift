import ApplePayToken
import Crypto
import Foundation

/// A merchant the gateway serves: who may call for it, and the Apple Pay keys its tokens are
/// encrypted to.
package struct Merchant: Sendable {
    package let id: String
    /// SHA-256 of each active API password (two during a rotation).
    private let passwordDigests: [SHA256Digest]
    package let keyRing: MerchantKeyRing
    package let acquirer: any Acquirer

    package init(id: String, apiPasswords: [String], keyRing: MerchantKeyRing, acquirer: any Acquirer) {
        self.id = id
        self.passwordDigests = apiPasswords.map { SHA256.hash(data: Data($0.utf8)) }
        self.keyRing = keyRing
        self.acquirer = acquirer
    }

    /// Compares digests, so the time taken says nothing about how much of a password matched.
    package func accepts(password: String) -> Bool {
        let candidate = SHA256.hash(data: Data(password.utf8))
        var matched = false
        for digest in passwordDigests where Self.constantTimeEqual(digest, candidate) { matched = true }
        return matched
    }

    private static func constantTimeEqual(_ a: SHA256Digest, _ b: SHA256Digest) -> Bool {
        zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
