import Foundation

/// Why Merchant Administration refused a login or a request: one case per rule, worded by the
/// console's pages.
package enum ConsoleRejection: Error, Sendable, Hashable {
    /// No such operator for the merchant, or the wrong password (the page says which neither).
    case invalidCredentials
    /// Too many failed logins for this operator; refused until then, even with the right password.
    /// Worded and answered as ``invalidCredentials``: an unknown name must not read differently.
    case operatorLocked(until: Date)
    /// Too many failed logins from this address within the window.
    case addressLocked
    /// Too many logins are having their passwords checked at once; nothing was checked.
    case loginsBusy
    /// No session, or one past its idle or absolute expiry, or logged out.
    case sessionExpired
    /// A form without the session's CSRF token.
    case csrfTokenMismatch
    /// A viewer asked for what only an admin may do.
    case roleForbidden(OperatorRole)
    /// No such order for the operator's merchant (another merchant's order id included).
    case orderNotFound(String)
    /// A form body over the console's limit, refused unread.
    case formTooLarge(limit: Int)
    /// A form or query field the console cannot read.
    case invalidField(String)
}
