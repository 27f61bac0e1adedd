import Crypto
import Foundation
import _CryptoExtras

/// An operator's password as stored: PBKDF2-HMAC-SHA256 with a random salt, spelled
/// `pbkdf2-sha256$ROUNDS$SALT$HASH` (base64), so the rounds can rise without a migration.
package struct PasswordHash: Sendable, Hashable {
    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256.
    package static let defaultRounds = 600_000

    package let rounds: Int
    package let salt: [UInt8]
    package let hash: [UInt8]

    /// Hashes a new password with a fresh 16-byte salt.
    package init(password: String, rounds: Int = defaultRounds) throws {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.rounds = rounds
        self.salt = salt
        self.hash = try Self.derive(password, salt: salt, rounds: rounds)
    }

    /// Reads the stored spelling; nil for anything else.
    package init?(stored: String) {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds >= 1,
            let salt = Data(base64Encoded: String(parts[2])), let hash = Data(base64Encoded: String(parts[3])),
            hash.count == 32
        else { return nil }
        self.rounds = rounds
        self.salt = Array(salt)
        self.hash = Array(hash)
    }

    package var stored: String {
        "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// Derives again and compares in constant time.
    package func matches(_ password: String) -> Bool {
        guard let candidate = try? Self.derive(password, salt: salt, rounds: rounds) else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(candidate, hash) { difference |= a ^ b }
        return difference == 0 && candidate.count == hash.count
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8),
            salt: salt,
            using: .sha256,
            outputByteCount: 32,
            unsafeUncheckedRounds: rounds
        )
        return key.withUnsafeBytes { Array($0) }
    }
}
