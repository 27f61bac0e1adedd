import Foundation

/// A Merchant Administration operator as the store keeps them: one merchant's, by name, with the
/// password only as its PBKDF2 hash, and the failed logins the lockout counts.
package struct StoredOperator: Sendable, Hashable {
    package var merchantId: String
    package var name: String
    package var role: OperatorRole
    package var passwordHash: PasswordHash
    /// Failed logins since the last successful one.
    package var failedLogins: Int
    /// Locked out until then (after too many failed logins).
    package var lockedUntil: Date?

    package init(
        merchantId: String,
        name: String,
        role: OperatorRole,
        passwordHash: PasswordHash,
        failedLogins: Int = 0,
        lockedUntil: Date? = nil
    ) {
        self.merchantId = merchantId
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.failedLogins = failedLogins
        self.lockedUntil = lockedUntil
    }
}
