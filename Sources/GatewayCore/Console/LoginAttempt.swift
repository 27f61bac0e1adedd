import Foundation

/// A login attempt as the store counted it, before the password is checked.
///
/// Counting first, under the store's exclusion, is what makes the lockout hold: attempts checked
/// at the same time each see the ones before them, so the limit's attempt locks whatever the
/// passwords turn out to be, and no attempt past it is ever checked.
package enum LoginAttempt: Sendable, Hashable {
    /// Counted as a failure until its password proves right: the operator as stored after it
    /// (the count includes this attempt; the lock is set when it reached the limit).
    case counted(StoredOperator)
    /// The operator is locked out until then: refused, not counted, password unchecked.
    case locked(until: Date)
    /// The merchant has no operator of that name.
    case unknown
}
