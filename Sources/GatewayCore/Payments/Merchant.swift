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
    /// The merchant's token repository: a token names a card of this merchant's only.
    package let tokens: TokenRepository
    /// Webhook notifications (`merchant.<ID>.notifications.*`); nil: none.
    package var notifications: MerchantNotifications? = nil

    package init(
        id: String,
        apiPasswords: [String],
        keyRing: MerchantKeyRing,
        acquirer: any Acquirer,
        tokens: TokenRepository? = nil
    ) {
        self.id = id
        self.passwordDigests = apiPasswords.map { SHA256.hash(data: Data($0.utf8)) }
        self.keyRing = keyRing
        self.acquirer = acquirer
        self.tokens = tokens ?? TokenRepository(id: id)
    }

    /// Compares digests, so the time taken says nothing about how much of a password matched.
    /// Hashed from the string's own bytes and compared through pointers: a `Data` copy of the
    /// password and generic iteration over the digests were most of the check's cost.
    package func accepts(password: String) -> Bool {
        var password = password
        let candidate = password.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        var matched = false
        for digest in passwordDigests where Self.constantTimeEqual(digest, candidate) { matched = true }
        return matched
    }

    private static func constantTimeEqual(_ a: SHA256Digest, _ b: SHA256Digest) -> Bool {
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                guard a.count == b.count else { return false }
                var difference: UInt8 = 0
                for index in 0..<a.count { difference |= a[index] ^ b[index] }
                return difference == 0
            }
        }
    }
}
