import Foundation
import GatewayCore

/// Merchant Administration's operators, sessions, failed logins, audit log and order search in
/// the SQLite file: reads on the reader connection, writes on the writer's queue.
extension SQLiteTransactionStore: ConsoleStore {
    package func insertOperator(_ stored: StoredOperator) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                """
                INSERT OR IGNORE INTO console_operators (merchant_id, name, role, password_hash, failed_logins, locked_until_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                Self.operatorValues(stored)
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    package func consoleOperator(merchantId: String, name: String) async throws -> StoredOperator? {
        try await run { connection in try Self.operatorRow(connection, merchantId: merchantId, name: name) }
    }

    package func countLoginAttempt(
        merchantId: String,
        name: String,
        _ count: @escaping @Sendable (StoredOperator) -> LoginAttempt
    ) async throws -> LoginAttempt {
        // Read and written on the writer's queue: no other attempt's count comes in between.
        try await writer.perform { connection in
            guard let stored = try Self.operatorRow(connection, merchantId: merchantId, name: name) else { return .unknown }
            let attempt = count(stored)
            if case .counted(let counted) = attempt {
                try connection.query(
                    "UPDATE console_operators SET failed_logins = ?, locked_until_ms = ? WHERE merchant_id = ? AND name = ?",
                    [
                        .integer(Int64(counted.failedLogins)), counted.lockedUntil.map { .integer($0.milliseconds) } ?? .null,
                        .text(merchantId), .text(name),
                    ]
                )
            }
            return attempt
        }
    }

    package func clearLoginFailures(merchantId: String, name: String) async throws {
        _ = try await writer.perform { connection in
            try connection.query(
                "UPDATE console_operators SET failed_logins = 0, locked_until_ms = NULL WHERE merchant_id = ? AND name = ?",
                [.text(merchantId), .text(name)]
            )
        }
    }

    private static func operatorRow(_ connection: SQLiteConnection, merchantId: String, name: String) throws -> StoredOperator? {
        try connection.rows(
            """
            SELECT role, password_hash, failed_logins, locked_until_ms FROM console_operators
            WHERE merchant_id = ? AND name = ?
            """,
            [.text(merchantId), .text(name)]
        ).first.map { row in
            let hash = try row.text("password_hash")
            guard let passwordHash = PasswordHash(stored: hash) else {
                throw UnreadableStoredValue(column: "console_operators.password_hash", value: "(a hash)")
            }
            return StoredOperator(
                merchantId: merchantId,
                name: name,
                role: try StoredColumn.decode(OperatorRole.self, row["role"].text, column: "console_operators.role"),
                passwordHash: passwordHash,
                failedLogins: Int(try row.integer("failed_logins")),
                lockedUntil: try row.optionalInteger("locked_until_ms").map(Date.init(milliseconds:))
            )
        }
    }

    package func updateOperator(_ stored: StoredOperator) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                """
                UPDATE console_operators SET role = ?, password_hash = ?, failed_logins = ?, locked_until_ms = ?
                WHERE merchant_id = ? AND name = ?
                """,
                [
                    .text(stored.role.rawValue), .text(stored.passwordHash.stored), .integer(Int64(stored.failedLogins)),
                    stored.lockedUntil.map { .integer($0.milliseconds) } ?? .null, .text(stored.merchantId), .text(stored.name),
                ]
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }

    package func removeOperator(merchantId: String, name: String) async throws -> Bool {
        try await writer.perform { connection in
            try connection.transaction {
                try connection.query(
                    "DELETE FROM console_sessions WHERE merchant_id = ? AND operator_name = ?",
                    [.text(merchantId), .text(name)]
                )
                try connection.query(
                    "DELETE FROM console_operators WHERE merchant_id = ? AND name = ?",
                    [.text(merchantId), .text(name)]
                )
                return try connection.query("SELECT changes()").first?.first?.integer == 1
            }
        }
    }

    package func loginFailures(address: String, since: Date) async throws -> Int {
        try await run { connection in
            Int(
                try connection.query(
                    "SELECT count(*) FROM console_login_failures WHERE address = ? AND failed_at_ms >= ?",
                    [.text(address), .integer(since.milliseconds)]
                ).first?.first?.integer ?? 0
            )
        }
    }

    package func recordLoginFailure(address: String, at time: Date) async throws {
        try await writer.perform { connection in
            // Old failures count for nothing: pruned as new ones come.
            try connection.query(
                "DELETE FROM console_login_failures WHERE failed_at_ms < ?",
                [.integer(time.addingTimeInterval(-86_400).milliseconds)]
            )
            try connection.query(
                "INSERT INTO console_login_failures (address, failed_at_ms) VALUES (?, ?)",
                [.text(address), .integer(time.milliseconds)]
            )
        }
    }

    package func insertConsoleSession(_ session: ConsoleSession) async throws {
        _ = try await writer.perform { connection in
            try connection.query(
                """
                INSERT INTO console_sessions (id_digest, merchant_id, operator_name, role, csrf_token, created_at_ms, last_seen_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(session.idDigest), .text(session.merchantId), .text(session.operatorName), .text(session.role.rawValue),
                    .text(session.csrfToken), .integer(session.createdAt.milliseconds), .integer(session.lastSeenAt.milliseconds),
                ]
            )
        }
    }

    package func consoleSession(idDigest: String) async throws -> ConsoleSession? {
        // On the writer: a session made a moment ago must be found by the next request.
        try await writer.perform { connection in
            try connection.rows(
                """
                SELECT merchant_id, operator_name, role, csrf_token, created_at_ms, last_seen_at_ms
                FROM console_sessions WHERE id_digest = ?
                """,
                [.text(idDigest)]
            ).first.map { row in
                ConsoleSession(
                    idDigest: idDigest,
                    merchantId: try row.text("merchant_id"),
                    operatorName: try row.text("operator_name"),
                    role: try StoredColumn.decode(OperatorRole.self, row["role"].text, column: "console_sessions.role"),
                    csrfToken: try row.text("csrf_token"),
                    createdAt: Date(milliseconds: try row.integer("created_at_ms")),
                    lastSeenAt: Date(milliseconds: try row.integer("last_seen_at_ms"))
                )
            }
        }
    }

    package func touchConsoleSession(idDigest: String, at time: Date) async throws {
        _ = try await writer.perform { connection in
            try connection.query(
                "UPDATE console_sessions SET last_seen_at_ms = ? WHERE id_digest = ?",
                [.integer(time.milliseconds), .text(idDigest)]
            )
        }
    }

    package func deleteConsoleSession(idDigest: String) async throws {
        _ = try await writer.perform { connection in
            try connection.query("DELETE FROM console_sessions WHERE id_digest = ?", [.text(idDigest)])
        }
    }

    package func deleteConsoleSessions(merchantId: String, operatorName: String) async throws {
        _ = try await writer.perform { connection in
            try connection.query(
                "DELETE FROM console_sessions WHERE merchant_id = ? AND operator_name = ?",
                [.text(merchantId), .text(operatorName)]
            )
        }
    }

    package func appendAudit(_ entry: AuditEntry) async throws {
        _ = try await writer.perform { connection in
            try connection.query(
                """
                INSERT INTO console_audit (merchant_id, operator_name, action, detail, address, time_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(entry.merchantId), .text(entry.operatorName), .text(entry.action.rawValue), .text(entry.detail),
                    .text(entry.address), .integer(entry.time.milliseconds),
                ]
            )
        }
    }

    package func auditEntries(merchantId: String, limit: Int) async throws -> [AuditEntry] {
        try await writer.perform { connection in
            try connection.rows(
                """
                SELECT operator_name, action, detail, address, time_ms FROM console_audit
                WHERE merchant_id = ? ORDER BY time_ms DESC, rowid DESC LIMIT ?
                """,
                [.text(merchantId), .integer(Int64(limit))]
            ).map { row in
                AuditEntry(
                    merchantId: merchantId,
                    operatorName: try row.text("operator_name"),
                    action: try StoredColumn.decode(AuditEntry.Action.self, row["action"].text, column: "console_audit.action"),
                    detail: try row.text("detail"),
                    address: try row.text("address"),
                    time: Date(milliseconds: try row.integer("time_ms"))
                )
            }
        }
    }

    package func searchOrders(_ query: OrderQuery) async throws -> OrderPage {
        let (sql, values) = Self.orderSearch(query)
        return try await run { connection in
            let rows = try connection.rows(sql, values)
            let orders = try rows.prefix(query.limit).map { row in
                OrderListing(
                    orderId: try row.text("order_id"),
                    state: try OrderState(row: row),
                    lastUpdatedTime: Date(milliseconds: try row.integer("updated_at_ms"))
                )
            }
            return OrderPage(orders: orders, hasMore: rows.count > query.limit)
        }
    }

    /// The search as one statement, a page and one row more (to tell whether there is a next).
    static func orderSearch(_ query: OrderQuery) -> (sql: String, values: [SQLiteValue]) {
        let (whereClause, values) = orderFilter(query)
        let sql = """
            SELECT order_id, amount_minor, currency, status, total_authorized_minor, total_captured_minor,
                total_refunded_minor, wallet_provider, reference, created_at_ms, updated_at_ms
            FROM orders WHERE \(whereClause)
            ORDER BY created_at_ms DESC, order_id DESC LIMIT ? OFFSET ?
            """
        return (sql, values + [.integer(Int64(query.limit + 1)), .integer(Int64(query.offset))])
    }

    /// The WHERE clause and its values: every condition given, each bound, never spliced.
    private static func orderFilter(_ query: OrderQuery) -> (String, [SQLiteValue]) {
        var conditions = ["merchant_id = ?"]
        var values: [SQLiteValue] = [.text(query.merchantId)]
        if let orderId = query.orderId {
            conditions.append("order_id = ?")
            values.append(.text(orderId))
        }
        if let from = query.createdFrom {
            conditions.append("created_at_ms >= ?")
            values.append(.integer(from.milliseconds))
        }
        if let before = query.createdBefore {
            conditions.append("created_at_ms < ?")
            values.append(.integer(before.milliseconds))
        }
        if let status = query.status {
            conditions.append("status = ?")
            values.append(.text(status.rawValue))
        }
        if let minimum = query.minAmountMinorUnits {
            conditions.append("amount_minor >= ?")
            values.append(.integer(minimum))
        }
        if let maximum = query.maxAmountMinorUnits {
            conditions.append("amount_minor <= ?")
            values.append(.integer(maximum))
        }
        if let wallet = query.walletProvider {
            conditions.append("wallet_provider = ?")
            values.append(.text(wallet))
        }
        if let lastFour = query.cardLastFour {
            conditions.append(
                """
                order_id IN (SELECT order_id FROM transactions
                        WHERE merchant_id = ? AND card_number IS NOT NULL AND substr(card_number, -4) = ?
                    UNION SELECT order_id FROM transactions
                        WHERE merchant_id = ? AND device_number IS NOT NULL AND substr(device_number, -4) = ?)
                """
            )
            values += [.text(query.merchantId), .text(lastFour), .text(query.merchantId), .text(lastFour)]
        }
        return (conditions.joined(separator: " AND "), values)
    }

    private static func operatorValues(_ stored: StoredOperator) -> [SQLiteValue] {
        [
            .text(stored.merchantId), .text(stored.name), .text(stored.role.rawValue), .text(stored.passwordHash.stored),
            .integer(Int64(stored.failedLogins)), stored.lockedUntil.map { .integer($0.milliseconds) } ?? .null,
        ]
    }
}
