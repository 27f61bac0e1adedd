import Foundation

/// How long sessions live and when failed logins lock an operator or an address out.
package struct ConsolePolicy: Sendable, Hashable {
    /// A session unused this long is over.
    package var idleTimeout: TimeInterval = 15 * 60
    /// A session this old is over however busy it was.
    package var absoluteLifetime: TimeInterval = 8 * 3600
    /// Failed logins in a row that lock an operator out.
    package var operatorFailureLimit = 5
    /// How long an operator stays locked out.
    package var operatorLockout: TimeInterval = 15 * 60
    /// Failed logins from one address within `addressWindow` that lock the address out.
    package var addressFailureLimit = 20
    package var addressWindow: TimeInterval = 15 * 60
    /// Each failed login answers after this much per failure in a row (at most 5), slowing guessing.
    package var failureDelay: Duration = .milliseconds(250)

    package init() {}

    /// Whether the session may still be used at `now`.
    package func isLive(_ session: ConsoleSession, at now: Date) -> Bool {
        now.timeIntervalSince(session.lastSeenAt) < idleTimeout && now.timeIntervalSince(session.createdAt) < absoluteLifetime
    }

    /// Whether ``login(_:password:addressFailures:now:)`` will hash the password: false when a
    /// lockout refuses the login first.
    package func checksPassword(_ stored: StoredOperator?, addressFailures: Int, now: Date) -> Bool {
        lockout(stored, addressFailures: addressFailures, now: now) == nil
    }

    /// Decides a login: the operator after it (failures counted or cleared) and whether it succeeds.
    /// `operator` is nil when the merchant has no operator of that name.
    package func login(
        _ stored: StoredOperator?,
        password: String,
        addressFailures: Int,
        now: Date
    ) -> (updated: StoredOperator?, result: Result<StoredOperator, ConsoleRejection>) {
        if let refusal = lockout(stored, addressFailures: addressFailures, now: now) { return (nil, .failure(refusal)) }
        guard var stored else {
            // Hash anyway, so an unknown name takes as long as a wrong password.
            _ = PasswordHash(stored: Self.decoy)?.matches(password)
            return (nil, .failure(.invalidCredentials))
        }
        guard stored.passwordHash.matches(password) else {
            stored.failedLogins += 1
            if stored.failedLogins >= operatorFailureLimit {
                stored.lockedUntil = now.addingTimeInterval(operatorLockout)
                stored.failedLogins = 0
                return (stored, .failure(.operatorLocked(until: stored.lockedUntil!)))
            }
            return (stored, .failure(.invalidCredentials))
        }
        stored.failedLogins = 0
        stored.lockedUntil = nil
        return (stored, .success(stored))
    }

    private func lockout(_ stored: StoredOperator?, addressFailures: Int, now: Date) -> ConsoleRejection? {
        if addressFailures >= addressFailureLimit { return .addressLocked }
        if let until = stored?.lockedUntil, until > now { return .operatorLocked(until: until) }
        return nil
    }

    /// The pause before a failed login is answered.
    package func delay(afterFailures failures: Int) -> Duration {
        failureDelay * min(max(failures, 1), 5)
    }

    /// A hash of nothing anyone knows, at the default rounds (timing parity for unknown names).
    private static let decoy =
        "pbkdf2-sha256$\(PasswordHash.defaultRounds)$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
}
