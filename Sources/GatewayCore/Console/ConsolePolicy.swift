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

    /// Whether the address has failed too often to try at all (nothing is counted or checked).
    package func refusesAddress(failures: Int) -> ConsoleRejection? {
        failures >= addressFailureLimit ? .addressLocked : nil
    }

    /// The rule a store applies, under its exclusion, to count one login attempt against the
    /// operator at `now`: refused while locked; after a lockout ends the count starts again; the
    /// attempt that reaches ``operatorFailureLimit`` locks the operator, whatever its password.
    package func count(_ stored: StoredOperator, at now: Date) -> LoginAttempt {
        if let until = stored.lockedUntil, until > now { return .locked(until: until) }
        var counted = stored
        if counted.lockedUntil != nil {
            counted.failedLogins = 0
            counted.lockedUntil = nil
        }
        counted.failedLogins += 1
        if counted.failedLogins >= operatorFailureLimit { counted.lockedUntil = now.addingTimeInterval(operatorLockout) }
        return .counted(counted)
    }

    /// Decides a counted attempt by its password. Unknown and locked-out names hash a decoy, so
    /// they take as long as a wrong password, and are refused as one: the answer does not say
    /// whether the name exists.
    package func login(_ attempt: LoginAttempt, password: String) -> Result<StoredOperator, ConsoleRejection> {
        switch attempt {
        case .counted(let stored):
            guard stored.passwordHash.matches(password) else { return .failure(.invalidCredentials) }
            return .success(stored)
        case .locked(let until):
            _ = PasswordHash(stored: Self.decoy)?.matches(password)
            return .failure(.operatorLocked(until: until))
        case .unknown:
            _ = PasswordHash(stored: Self.decoy)?.matches(password)
            return .failure(.invalidCredentials)
        }
    }

    /// The pause before a failed login is answered.
    package func delay(afterFailures failures: Int) -> Duration {
        failureDelay * min(max(failures, 1), 5)
    }

    /// A hash of nothing anyone knows, at the default rounds (timing parity for unknown names).
    private static let decoy =
        "pbkdf2-sha256$\(PasswordHash.defaultRounds)$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
}
