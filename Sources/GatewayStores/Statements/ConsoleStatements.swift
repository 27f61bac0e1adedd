import Foundation
import GatewayCore

/// Merchant Administration's statements (operators, failed logins, console sessions, the audit
/// log), the same on SQLite and PostgreSQL (``StoreStatement``).
enum ConsoleStatements {
    // MARK: Operators

    static func insert(_ stored: StoredOperator) -> StoreStatement {
        StoreStatement(
            """
            INSERT INTO console_operators (merchant_id, name, role, password_hash, failed_logins, locked_until_ms)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1
            """,
            [
                .text(stored.merchantId), .text(stored.name), .text(stored.role.rawValue), .text(stored.passwordHash.stored),
                failedLogins(stored.failedLogins), lockedUntil(stored.lockedUntil),
            ]
        )
    }

    static func selectOperator(merchantId: String, name: String) -> StoreStatement {
        StoreStatement(
            "SELECT role, password_hash, failed_logins, locked_until_ms FROM console_operators WHERE merchant_id = ? AND name = ?",
            [.text(merchantId), .text(name)]
        )
    }

    static func update(_ stored: StoredOperator) -> StoreStatement {
        StoreStatement(
            """
            UPDATE console_operators SET role = ?, password_hash = ?, failed_logins = ?, locked_until_ms = ?
            WHERE merchant_id = ? AND name = ? RETURNING 1
            """,
            [
                .text(stored.role.rawValue), .text(stored.passwordHash.stored), failedLogins(stored.failedLogins),
                lockedUntil(stored.lockedUntil), .text(stored.merchantId), .text(stored.name),
            ]
        )
    }

    /// The counted attempt, written only over the row it was counted from (compare and set).
    static func count(_ counted: StoredOperator, over stored: StoredOperator) -> StoreStatement {
        StoreStatement(
            """
            UPDATE console_operators SET failed_logins = ?, locked_until_ms = ?
            WHERE merchant_id = ? AND name = ? AND failed_logins = ? AND locked_until_ms IS NOT DISTINCT FROM ?
            RETURNING 1
            """,
            [
                failedLogins(counted.failedLogins), lockedUntil(counted.lockedUntil), .text(stored.merchantId), .text(stored.name),
                failedLogins(stored.failedLogins), lockedUntil(stored.lockedUntil),
            ]
        )
    }

    static func clearLoginFailures(merchantId: String, name: String) -> StoreStatement {
        StoreStatement(
            "UPDATE console_operators SET failed_logins = 0, locked_until_ms = NULL WHERE merchant_id = ? AND name = ?",
            [.text(merchantId), .text(name)]
        )
    }

    static func deleteOperator(merchantId: String, name: String) -> StoreStatement {
        StoreStatement("DELETE FROM console_operators WHERE merchant_id = ? AND name = ? RETURNING 1", [.text(merchantId), .text(name)])
    }

    /// A row of ``selectOperator(merchantId:name:)``.
    static func storedOperator(_ row: some StoredRow, merchantId: String, name: String) throws -> StoredOperator {
        guard let passwordHash = PasswordHash(stored: try row.text("password_hash")) else {
            throw UnreadableStoredValue(column: "console_operators.password_hash", value: "(a hash)")
        }
        return StoredOperator(
            merchantId: merchantId,
            name: name,
            role: try StoredColumn.decode(OperatorRole.self, try row.text("role"), column: "console_operators.role"),
            passwordHash: passwordHash,
            failedLogins: Int(try row.integer("failed_logins")),
            lockedUntil: try row.optionalInteger("locked_until_ms").map(Date.init(milliseconds:))
        )
    }

    // MARK: Failed logins by address

    static func loginFailures(address: String, since: Date) -> StoreStatement {
        StoreStatement(
            "SELECT count(*) AS failures FROM console_login_failures WHERE address = ? AND failed_at_ms >= ?",
            [.text(address), .integer(since.milliseconds)]
        )
    }

    /// Old failures count for nothing: pruned as new ones come.
    static func pruneLoginFailures(recordedAt time: Date) -> StoreStatement {
        StoreStatement(
            "DELETE FROM console_login_failures WHERE failed_at_ms < ?",
            [.integer(time.addingTimeInterval(-86_400).milliseconds)]
        )
    }

    static func insertLoginFailure(address: String, at time: Date) -> StoreStatement {
        StoreStatement(
            "INSERT INTO console_login_failures (address, failed_at_ms) VALUES (?, ?)",
            [.text(address), .integer(time.milliseconds)]
        )
    }

    // MARK: Console sessions

    static func insert(_ session: ConsoleSession) -> StoreStatement {
        StoreStatement(
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

    static func selectSession(idDigest: String) -> StoreStatement {
        StoreStatement(
            """
            SELECT merchant_id, operator_name, role, csrf_token, created_at_ms, last_seen_at_ms
            FROM console_sessions WHERE id_digest = ?
            """,
            [.text(idDigest)]
        )
    }

    static func touchSession(idDigest: String, at time: Date) -> StoreStatement {
        StoreStatement("UPDATE console_sessions SET last_seen_at_ms = ? WHERE id_digest = ?", [.integer(time.milliseconds), .text(idDigest)])
    }

    static func deleteSession(idDigest: String) -> StoreStatement {
        StoreStatement("DELETE FROM console_sessions WHERE id_digest = ?", [.text(idDigest)])
    }

    static func deleteSessions(merchantId: String, operatorName: String) -> StoreStatement {
        StoreStatement(
            "DELETE FROM console_sessions WHERE merchant_id = ? AND operator_name = ?",
            [.text(merchantId), .text(operatorName)]
        )
    }

    /// A row of ``selectSession(idDigest:)``.
    static func session(_ row: some StoredRow, idDigest: String) throws -> ConsoleSession {
        ConsoleSession(
            idDigest: idDigest,
            merchantId: try row.text("merchant_id"),
            operatorName: try row.text("operator_name"),
            role: try StoredColumn.decode(OperatorRole.self, try row.text("role"), column: "console_sessions.role"),
            csrfToken: try row.text("csrf_token"),
            createdAt: Date(milliseconds: try row.integer("created_at_ms")),
            lastSeenAt: Date(milliseconds: try row.integer("last_seen_at_ms"))
        )
    }

    // MARK: Audit log

    static func insert(_ entry: AuditEntry) -> StoreStatement {
        StoreStatement(
            "INSERT INTO console_audit (merchant_id, operator_name, action, detail, address, time_ms) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(entry.merchantId), .text(entry.operatorName), .text(entry.action.rawValue), .text(entry.detail),
                .text(entry.address), .integer(entry.time.milliseconds),
            ]
        )
    }

    /// The newest entries first; of entries made in one millisecond, the last written first, by
    /// `insertionOrder`, the column each store numbers its rows with.
    static func auditEntries(merchantId: String, limit: Int, insertionOrder: String) -> StoreStatement {
        StoreStatement(
            """
            SELECT operator_name, action, detail, address, time_ms FROM console_audit
            WHERE merchant_id = ? ORDER BY time_ms DESC, \(insertionOrder) DESC LIMIT ?
            """,
            [.text(merchantId), .integer(Int64(limit))]
        )
    }

    /// A row of ``auditEntries(merchantId:limit:insertionOrder:)``.
    static func auditEntry(_ row: some StoredRow, merchantId: String) throws -> AuditEntry {
        AuditEntry(
            merchantId: merchantId,
            operatorName: try row.text("operator_name"),
            action: try StoredColumn.decode(AuditEntry.Action.self, try row.text("action"), column: "console_audit.action"),
            detail: try row.text("detail"),
            address: try row.text("address"),
            time: Date(milliseconds: try row.integer("time_ms"))
        )
    }

    /// PostgreSQL's column is an `integer`: a count beyond it is kept at its largest.
    private static func failedLogins(_ count: Int) -> StoredValue {
        .integer(Int64(Int32(clamping: count)))
    }

    private static func lockedUntil(_ time: Date?) -> StoredValue {
        time.map { .integer($0.milliseconds) } ?? .null
    }
}
