import Foundation

/// What Merchant Administration keeps in the gateway's store, so replicas share operators,
/// sessions and the audit log. It decides nothing: ``ConsolePolicy`` does.
package protocol ConsoleStore: Sendable {
    /// False when the merchant already has an operator of that name.
    func insertOperator(_ stored: StoredOperator) async throws -> Bool
    func consoleOperator(merchantId: String, name: String) async throws -> StoredOperator?
    /// Role, password hash, failures and lockout; false when there is no such operator.
    func updateOperator(_ stored: StoredOperator) async throws -> Bool
    /// Removes the operator and their sessions; false when there was none.
    func removeOperator(merchantId: String, name: String) async throws -> Bool

    /// Counts a login attempt against the operator before its password is checked: reads them,
    /// applies `count` (``ConsolePolicy/count(_:at:)``) and stores the operator it returns, with
    /// no other change to them in between, so concurrent attempts each see the one before.
    func countLoginAttempt(
        merchantId: String,
        name: String,
        _ count: @escaping @Sendable (StoredOperator) -> LoginAttempt
    ) async throws -> LoginAttempt
    /// A right password: the operator's failed logins and any lockout they set are cleared.
    func clearLoginFailures(merchantId: String, name: String) async throws

    /// Failed logins from the address since then.
    func loginFailures(address: String, since: Date) async throws -> Int
    func recordLoginFailure(address: String, at: Date) async throws

    func insertConsoleSession(_ session: ConsoleSession) async throws
    func consoleSession(idDigest: String) async throws -> ConsoleSession?
    func touchConsoleSession(idDigest: String, at: Date) async throws
    func deleteConsoleSession(idDigest: String) async throws
    /// Ends every session of the operator (a new password: whoever had the old one is out).
    func deleteConsoleSessions(merchantId: String, operatorName: String) async throws

    func appendAudit(_ entry: AuditEntry) async throws
    /// The merchant's latest entries, newest first.
    func auditEntries(merchantId: String, limit: Int) async throws -> [AuditEntry]

    func searchOrders(_ query: OrderQuery) async throws -> OrderPage

    /// Every merchant's API password changes, oldest first (a short log: a few per rotation).
    func apiPasswordChanges() async throws -> [APIPasswordChange]
    /// False when the same change was recorded before (the same form submitted twice).
    func recordAPIPasswordChange(_ change: APIPasswordChange) async throws -> Bool
}
