import Foundation
import GatewayCore

/// Merchant Administration's operators, sessions, failed logins, audit log and order search in
/// the SQLite file (``ConsoleStatements``): reads on the reader connection, writes on the
/// writer's queue.
extension SQLiteTransactionStore: ConsoleStore {
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
        // Read and written on the writer's queue: no other attempt's count comes in between, so
        // the compare and set PostgreSQL retries (its replicas count at once) always holds here.
        try await writer.perform { connection in
            guard
                let stored = try connection.rows(ConsoleStatements.selectOperator(merchantId: merchantId, name: name)).first.map({
                    try ConsoleStatements.storedOperator($0, merchantId: merchantId, name: name)
                })
            else { return .unknown }
            let attempt = count(stored)
            if case .counted(let counted) = attempt {
                _ = try connection.rows(ConsoleStatements.count(counted, over: stored))
            }
            return attempt
        }
    }

    package func clearLoginFailures(merchantId: String, name: String) async throws {
        try await execute(ConsoleStatements.clearLoginFailures(merchantId: merchantId, name: name))
    }

    package func updateOperator(_ stored: StoredOperator) async throws -> Bool {
        try await changedRow(ConsoleStatements.update(stored))
    }

    package func removeOperator(merchantId: String, name: String) async throws -> Bool {
        // Both deletes in one transaction (PostgreSQL runs them one after the other, sessions first).
        try await writer.perform { connection in
            try connection.transaction {
                _ = try connection.rows(ConsoleStatements.deleteSessions(merchantId: merchantId, operatorName: name))
                return try !connection.rows(ConsoleStatements.deleteOperator(merchantId: merchantId, name: name)).isEmpty
            }
        }
    }

    package func loginFailures(address: String, since: Date) async throws -> Int {
        try await rows(ConsoleStatements.loginFailures(address: address, since: since)) { Int(try $0.integer("failures")) }.first ?? 0
    }

    package func recordLoginFailure(address: String, at time: Date) async throws {
        try await writer.perform { connection in
            _ = try connection.rows(ConsoleStatements.pruneLoginFailures(recordedAt: time))
            _ = try connection.rows(ConsoleStatements.insertLoginFailure(address: address, at: time))
        }
    }

    package func insertConsoleSession(_ session: ConsoleSession) async throws {
        try await execute(ConsoleStatements.insert(session))
    }

    package func consoleSession(idDigest: String) async throws -> ConsoleSession? {
        // On the writer: a session made a moment ago must be found by the next request.
        try await rowsAfterWrites(ConsoleStatements.selectSession(idDigest: idDigest)) {
            try ConsoleStatements.session($0, idDigest: idDigest)
        }.first
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
        // SQLite's own rowid orders the entries of one millisecond (PostgreSQL's table numbers them).
        try await rowsAfterWrites(ConsoleStatements.auditEntries(merchantId: merchantId, limit: limit, insertionOrder: "rowid")) {
            try ConsoleStatements.auditEntry($0, merchantId: merchantId)
        }
    }

    package func searchOrders(_ query: OrderQuery) async throws -> OrderPage {
        OrderSearchStatement.page(try await rows(Self.orderSearchStatement(query), OrderSearchStatement.listing), limit: query.limit)
    }

    /// The search with SQLite's last four characters, as its last-four indexes are defined
    /// (SQLite has no `right`; PostgreSQL's `substr` does not count from the end).
    static func orderSearchStatement(_ query: OrderQuery) -> StoreStatement {
        OrderSearchStatement.search(query) { "substr(\($0), -4)" }
    }

    /// The search as SQLite is given it (the plan tests explain it).
    static func orderSearch(_ query: OrderQuery) -> (sql: String, values: [SQLiteValue]) {
        let statement = orderSearchStatement(query)
        return (statement.sql, statement.values.map(SQLiteValue.init))
    }
}
