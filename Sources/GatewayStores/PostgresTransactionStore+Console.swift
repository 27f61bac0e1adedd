import Foundation
import GatewayCore
import PostgresNIO

/// Merchant Administration in the shared database: an operator logged in on one replica is
/// logged in on all, and lockouts and the audit log are the same everywhere. Each call is one
/// statement (removing an operator, one per table, sessions first).
extension PostgresTransactionStore: ConsoleStore {
    package func insertOperator(_ stored: StoredOperator) async throws -> Bool {
        try await changes(
            """
            INSERT INTO console_operators (merchant_id, name, role, password_hash, failed_logins, locked_until_ms)
            VALUES (\(stored.merchantId), \(stored.name), \(stored.role.rawValue), \(stored.passwordHash.stored),
                \(stored.failedLogins), \(stored.lockedUntil?.milliseconds))
            ON CONFLICT DO NOTHING RETURNING 1
            """
        )
    }

    package func consoleOperator(merchantId: String, name: String) async throws -> StoredOperator? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT role, password_hash, failed_logins, locked_until_ms FROM console_operators
                WHERE merchant_id = \(merchantId) AND name = \(name)
                """,
                logger: self.logger
            )
            var found: StoredOperator?
            for try await row in rows {
                let columns = row.makeRandomAccess()
                guard let hash = PasswordHash(stored: try columns["password_hash"].decode(String.self)) else {
                    throw UnreadableStoredValue(column: "console_operators.password_hash", value: "(a hash)")
                }
                found = StoredOperator(
                    merchantId: merchantId,
                    name: name,
                    role: try StoredColumn.decode(OperatorRole.self, try columns["role"].decode(String.self), column: "console_operators.role"),
                    passwordHash: hash,
                    failedLogins: Int(try columns["failed_logins"].decode(Int32.self)),
                    lockedUntil: try columns["locked_until_ms"].decode(Int64?.self).map(Date.init(milliseconds:))
                )
            }
            return found
        }
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
            let written = try await changes(
                """
                UPDATE console_operators SET failed_logins = \(Int32(clamping: counted.failedLogins)),
                    locked_until_ms = \(counted.lockedUntil?.milliseconds)
                WHERE merchant_id = \(merchantId) AND name = \(name)
                    AND failed_logins = \(Int32(clamping: stored.failedLogins))
                    AND locked_until_ms IS NOT DISTINCT FROM \(stored.lockedUntil?.milliseconds)
                RETURNING 1
                """
            )
            if written { return attempt }
        }
        throw StoreUnavailable(reason: "login attempts for one operator kept changing the count")
    }

    /// More concurrent attempts on one operator than the console's password line holds.
    private static let countingRounds = 64

    package func clearLoginFailures(merchantId: String, name: String) async throws {
        _ = try await changes(
            """
            UPDATE console_operators SET failed_logins = 0, locked_until_ms = NULL
            WHERE merchant_id = \(merchantId) AND name = \(name) RETURNING 1
            """
        )
    }

    package func updateOperator(_ stored: StoredOperator) async throws -> Bool {
        try await changes(
            """
            UPDATE console_operators SET role = \(stored.role.rawValue), password_hash = \(stored.passwordHash.stored),
                failed_logins = \(Int32(clamping: stored.failedLogins)), locked_until_ms = \(stored.lockedUntil?.milliseconds)
            WHERE merchant_id = \(stored.merchantId) AND name = \(stored.name) RETURNING 1
            """
        )
    }

    package func removeOperator(merchantId: String, name: String) async throws -> Bool {
        _ = try await changes(
            "DELETE FROM console_sessions WHERE merchant_id = \(merchantId) AND operator_name = \(name) RETURNING 1"
        )
        return try await changes("DELETE FROM console_operators WHERE merchant_id = \(merchantId) AND name = \(name) RETURNING 1")
    }

    package func loginFailures(address: String, since: Date) async throws -> Int {
        try await run { connection in
            let rows = try await connection.query(
                "SELECT count(*) FROM console_login_failures WHERE address = \(address) AND failed_at_ms >= \(since.milliseconds)",
                logger: self.logger
            )
            var count = 0
            for try await row in rows { count = Int(try row.decode(Int64.self)) }
            return count
        }
    }

    package func recordLoginFailure(address: String, at time: Date) async throws {
        _ = try await changes(
            "DELETE FROM console_login_failures WHERE failed_at_ms < \(time.addingTimeInterval(-86_400).milliseconds) RETURNING 1"
        )
        _ = try await changes(
            "INSERT INTO console_login_failures (address, failed_at_ms) VALUES (\(address), \(time.milliseconds)) RETURNING 1"
        )
    }

    package func insertConsoleSession(_ session: ConsoleSession) async throws {
        _ = try await changes(
            """
            INSERT INTO console_sessions (id_digest, merchant_id, operator_name, role, csrf_token, created_at_ms, last_seen_at_ms)
            VALUES (\(session.idDigest), \(session.merchantId), \(session.operatorName), \(session.role.rawValue),
                \(session.csrfToken), \(session.createdAt.milliseconds), \(session.lastSeenAt.milliseconds))
            RETURNING 1
            """
        )
    }

    package func consoleSession(idDigest: String) async throws -> ConsoleSession? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT merchant_id, operator_name, role, csrf_token, created_at_ms, last_seen_at_ms
                FROM console_sessions WHERE id_digest = \(idDigest)
                """,
                logger: self.logger
            )
            var found: ConsoleSession?
            for try await row in rows {
                let columns = row.makeRandomAccess()
                found = ConsoleSession(
                    idDigest: idDigest,
                    merchantId: try columns["merchant_id"].decode(String.self),
                    operatorName: try columns["operator_name"].decode(String.self),
                    role: try StoredColumn.decode(OperatorRole.self, try columns["role"].decode(String.self), column: "console_sessions.role"),
                    csrfToken: try columns["csrf_token"].decode(String.self),
                    createdAt: Date(milliseconds: try columns["created_at_ms"].decode(Int64.self)),
                    lastSeenAt: Date(milliseconds: try columns["last_seen_at_ms"].decode(Int64.self))
                )
            }
            return found
        }
    }

    package func touchConsoleSession(idDigest: String, at time: Date) async throws {
        _ = try await changes(
            "UPDATE console_sessions SET last_seen_at_ms = \(time.milliseconds) WHERE id_digest = \(idDigest) RETURNING 1"
        )
    }

    package func deleteConsoleSession(idDigest: String) async throws {
        _ = try await changes("DELETE FROM console_sessions WHERE id_digest = \(idDigest) RETURNING 1")
    }

    package func deleteConsoleSessions(merchantId: String, operatorName: String) async throws {
        _ = try await changes(
            "DELETE FROM console_sessions WHERE merchant_id = \(merchantId) AND operator_name = \(operatorName) RETURNING 1"
        )
    }

    package func appendAudit(_ entry: AuditEntry) async throws {
        _ = try await changes(
            """
            INSERT INTO console_audit (merchant_id, operator_name, action, detail, address, time_ms)
            VALUES (\(entry.merchantId), \(entry.operatorName), \(entry.action.rawValue), \(entry.detail), \(entry.address),
                \(entry.time.milliseconds))
            RETURNING 1
            """
        )
    }

    package func auditEntries(merchantId: String, limit: Int) async throws -> [AuditEntry] {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT operator_name, action, detail, address, time_ms FROM console_audit
                WHERE merchant_id = \(merchantId) ORDER BY time_ms DESC, sequence DESC LIMIT \(Int64(limit))
                """,
                logger: self.logger
            )
            var entries: [AuditEntry] = []
            for try await row in rows {
                let columns = row.makeRandomAccess()
                entries.append(
                    AuditEntry(
                        merchantId: merchantId,
                        operatorName: try columns["operator_name"].decode(String.self),
                        action: try StoredColumn.decode(
                            AuditEntry.Action.self,
                            try columns["action"].decode(String.self),
                            column: "console_audit.action"
                        ),
                        detail: try columns["detail"].decode(String.self),
                        address: try columns["address"].decode(String.self),
                        time: Date(milliseconds: try columns["time_ms"].decode(Int64.self))
                    )
                )
            }
            return entries
        }
    }

    package func searchOrders(_ query: OrderQuery) async throws -> OrderPage {
        let statement = Self.orderSearch(query)
        return try await run { connection in
            let rows = try await connection.query(statement, logger: self.logger)
            var orders: [OrderListing] = []
            for try await row in rows {
                let stored = PostgresStoredRow(row)
                orders.append(
                    OrderListing(
                        orderId: try stored.text("order_id"),
                        state: try OrderState(row: stored),
                        lastUpdatedTime: Date(milliseconds: try stored.integer("updated_at_ms"))
                    )
                )
            }
            let hasMore = orders.count > query.limit
            return OrderPage(orders: Array(orders.prefix(query.limit)), hasMore: hasMore)
        }
    }

    /// The search as one statement: every condition given, each value bound, never spliced.
    static func orderSearch(_ query: OrderQuery) -> PostgresQuery {
        var bindings = PostgresBindings()
        var conditions: [String] = []
        func bind(_ value: some PostgresNonThrowingEncodable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        conditions.append("merchant_id = \(bind(query.merchantId))")
        if let orderId = query.orderId { conditions.append("order_id = \(bind(orderId))") }
        if let from = query.createdFrom { conditions.append("created_at_ms >= \(bind(from.milliseconds))") }
        if let before = query.createdBefore { conditions.append("created_at_ms < \(bind(before.milliseconds))") }
        if let status = query.status { conditions.append("status = \(bind(status.rawValue))") }
        if let minimum = query.minAmountMinorUnits { conditions.append("amount_minor >= \(bind(minimum))") }
        if let maximum = query.maxAmountMinorUnits { conditions.append("amount_minor <= \(bind(maximum))") }
        if let wallet = query.walletProvider { conditions.append("wallet_provider = \(bind(wallet))") }
        if let lastFour = query.cardLastFour {
            let merchant = bind(query.merchantId)
            let digits = bind(lastFour)
            conditions.append(
                """
                order_id IN (SELECT order_id FROM transactions
                        WHERE merchant_id = \(merchant) AND card_number IS NOT NULL AND right(card_number, 4) = \(digits)
                    UNION SELECT order_id FROM transactions
                        WHERE merchant_id = \(merchant) AND device_number IS NOT NULL AND right(device_number, 4) = \(digits))
                """
            )
        }
        let limit = bind(Int64(query.limit + 1))
        let offset = bind(Int64(query.offset))
        let sql = """
            SELECT order_id, amount_minor, currency, status, total_authorized_minor, total_captured_minor,
                total_refunded_minor, wallet_provider, reference, created_at_ms, updated_at_ms
            FROM orders WHERE \(conditions.joined(separator: " AND "))
            ORDER BY created_at_ms DESC, order_id DESC LIMIT \(limit) OFFSET \(offset)
            """
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// Runs a statement ending in RETURNING 1; whether it touched a row.
    func changes(_ statement: PostgresQuery) async throws -> Bool {
        try await run { connection in
            let rows = try await connection.query(statement, logger: self.logger)
            var changed = false
            for try await _ in rows { changed = true }
            return changed
        }
    }
}
