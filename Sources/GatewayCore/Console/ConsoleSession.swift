import Crypto
import Foundation

/// A logged-in operator's session, kept in the store so every replica knows it. The store holds
/// only the SHA-256 of the cookie's value: a copy of the database logs nobody in.
package struct ConsoleSession: Sendable, Hashable {
    /// SHA-256 of the cookie value, hex.
    package var idDigest: String
    package var merchantId: String
    package var operatorName: String
    package var role: OperatorRole
    /// Every form carries it; a POST without it is refused (CSRF).
    package var csrfToken: String
    package var createdAt: Date
    package var lastSeenAt: Date

    package init(
        idDigest: String,
        merchantId: String,
        operatorName: String,
        role: OperatorRole,
        csrfToken: String,
        createdAt: Date,
        lastSeenAt: Date
    ) {
        self.idDigest = idDigest
        self.merchantId = merchantId
        self.operatorName = operatorName
        self.role = role
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }

    /// The digest a cookie value is looked up by.
    package static func digest(ofCookie value: String) -> String {
        SHA256.hash(data: Data(value.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 32 random bytes as hex: a cookie value or a CSRF token.
    package static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
