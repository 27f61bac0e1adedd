import Foundation
import GatewayCore
import PostgresNIO

/// Merchant Administration in the shared database (``ConsoleStatements``): an operator logged in
/// on one replica is logged in on all, and lockouts and the audit log are the same everywhere.
/// Each call is one statement (removing an operator, one per table, sessions first).
extension PostgresTransactionStore: ConsoleStore {
    package func insertOperator(_ stored: StoredOperator) async throws -> Bool {
        try await changedRow(ConsoleStatements.insert(stored))
    }

    package func consoleOperator(merchantId: String, name: String) async throws -> StoredOperator? {
        try await rows(ConsoleStatements.selectOperator(merchantId: merchantId, name: name)) {
            try ConsoleStatements.storedOperator($0, merchantId: merchantId, name: name)
        }.first
    }

    package func countLoginAttempt(
        merchantId: String,
        name: String,
        _ count: @escaping @Sendable (StoredOperator) -> LoginAttempt
    ) async throws -> LoginAttempt {
        // Compare and set: the count is stored only over the row it was made from, so attempts on
        // other replicas or connections in between make this one read again. Each miss means
        // another attempt was counted, so the loop ends within the number of attempts at once.
        for _ in 0..<Self.countingRounds {
            guard let stored = try await consoleOperator(merchantId: merchantId, name: name) else { return .unknown }
            let attempt = count(stored)
            guard case .counted(let counted) = attempt else { return attempt }
            if try await changedRow(ConsoleStatements.count(counted, over: stored)) { return attempt }
        }
        throw StoreUnavailable(reason: "login attempts for one operator kept changing the count")
    }

    /// More concurrent attempts on one operator than the console's password line holds.
    private static let countingRounds = 64

    package func clearLoginFailures(merchantId: String, name: String) async throws {
        try await execute(ConsoleStatements.clearLoginFailures(merchantId: merchantId, name: name))
    }

    package func updateOperator(_ stored: StoredOperator) async throws -> Bool {
        try await changedRow(ConsoleStatements.update(stored))
    }

    package func removeOperator(merchantId: String, name: String) async throws -> Bool {
        try await execute(ConsoleStatements.deleteSessions(merchantId: merchantId, operatorName: name))
        return try await changedRow(ConsoleStatements.deleteOperator(merchantId: merchantId, name: name))
    }

    package func loginFailures(address: String, since: Date) async throws -> Int {
        try await rows(ConsoleStatements.loginFailures(address: address, since: since)) { Int(try $0.integer("failures")) }.first ?? 0
    }

    package func recordLoginFailure(address: String, at time: Date) async throws {
        try await execute(ConsoleStatements.pruneLoginFailures(recordedAt: time))
        try await execute(ConsoleStatements.insertLoginFailure(address: address, at: time))
    }

    package func insertConsoleSession(_ session: ConsoleSession) async throws {
        try await execute(ConsoleStatements.insert(session))
    }

    package func consoleSession(idDigest: String) async throws -> ConsoleSession? {
        try await rows(ConsoleStatements.selectSession(idDigest: idDigest)) { try ConsoleStatements.session($0, idDigest: idDigest) }.first
    }

    package func touchConsoleSession(idDigest: String, at time: Date) async throws {
        try await execute(ConsoleStatements.touchSession(idDigest: idDigest, at: time))
    }

    package func deleteConsoleSession(idDigest: String) async throws {
        try await execute(ConsoleStatements.deleteSession(idDigest: idDigest))
    }

    package func deleteConsoleSessions(merchantId: String, operatorName: String) async throws {
        try await execute(ConsoleStatements.deleteSessions(merchantId: merchantId, operatorName: operatorName))
    }

    package func appendAudit(_ entry: AuditEntry) async throws {
        try await execute(ConsoleStatements.insert(entry))
    }

    package func auditEntries(merchantId: String, limit: Int) async throws -> [AuditEntry] {
        // The table's identity column orders the entries of one millisecond (PostgreSQL has no rowid).
        try await rows(ConsoleStatements.auditEntries(merchantId: merchantId, limit: limit, insertionOrder: "sequence")) {
            try ConsoleStatements.auditEntry($0, merchantId: merchantId)
        }
    }

    package func searchOrders(_ query: OrderQuery) async throws -> OrderPage {
        OrderSearchStatement.page(try await rows(Self.orderSearchStatement(query), OrderSearchStatement.listing), limit: query.limit)
    }

    /// The search with PostgreSQL's last four characters, as its last-four indexes are defined
    /// (its `substr` does not count from the end; SQLite has no `right`).
    static func orderSearchStatement(_ query: OrderQuery) -> StoreStatement {
        OrderSearchStatement.search(query) { "right(\($0), 4)" }
    }

    /// The search as PostgreSQL is given it (the plan tests explain it).
    static func orderSearch(_ query: OrderQuery) -> PostgresQuery {
        orderSearchStatement(query).postgresQuery
    }
}
