import Foundation
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The statements both stores run are written once with `?` placeholders: PostgreSQL's numbered
/// ones are derived, and every statement has as many values as placeholders.
@Suite("Statements shared by both stores")
struct StoreStatementTests {
    @Test("PostgreSQL gets $1, $2, ... in place of each ?")
    func numberedPlaceholders() {
        let statement = StoreStatement("UPDATE t SET a = ?, b = ? WHERE c = ? RETURNING 1", [.text("x"), .integer(2), .null])
        #expect(statement.postgresSQL == "UPDATE t SET a = $1, b = $2 WHERE c = $3 RETURNING 1")
        #expect(StoreStatement.placeholders(3) == "?, ?, ?")
    }

    @Test("numbered placeholders keep their numbers for PostgreSQL")
    func renumberedPlaceholders() {
        let statement = StoreStatement("SELECT 1 WHERE a = ?1 AND (b = ?2 OR c = ?2) LIMIT ?3", [.text("x"), .text("y"), .integer(1)])
        #expect(statement.postgresSQL == "SELECT 1 WHERE a = $1 AND (b = $2 OR c = $2) LIMIT $3")
    }

    @Test("every token and authentication statement binds one value per placeholder")
    func valuesMatchPlaceholders() {
        let token = StoredToken(
            token: "9999990000000001",
            merchantId: "M",
            status: .valid,
            sealedCard: [1, 2, 3],
            createdAt: Date(milliseconds: 1),
            updatedAt: Date(milliseconds: 2)
        )
        let authentication = AuthenticationStoreTests.authentication(order: "o")
        let statements = [
            TokenStatements.insert(token), TokenStatements.select(merchantId: "M", token: token.token),
            TokenStatements.replace(token), TokenStatements.delete(merchantId: "M", token: token.token),
            AuthenticationStatements.select(merchantId: "M", orderId: "o", transactionId: "t"),
            AuthenticationStatements.select(challengeId: "c"), AuthenticationStatements.select(merchantId: "M", orderId: "o"),
            AuthenticationStatements.insert(authentication), AuthenticationStatements.replace(authentication, expectedRevision: 1),
        ]
        for statement in statements {
            #expect(statement.sql.filter { $0 == "?" }.count == statement.values.count, "\(statement.sql)")
        }
    }

    @Test("every console, session, API password, shared key and outbox statement binds one value per placeholder")
    func administrationValuesMatchPlaceholders() throws {
        let time = Date(milliseconds: 1_700_000_000_000)
        let stored = StoredOperator(
            merchantId: "M",
            name: "ada",
            role: .admin,
            passwordHash: try PasswordHash(password: "a password", rounds: 1_000),
            failedLogins: 2,
            lockedUntil: time
        )
        let session = ConsoleSession(
            idDigest: "d",
            merchantId: "M",
            operatorName: "ada",
            role: .viewer,
            csrfToken: "c",
            createdAt: time,
            lastSeenAt: time
        )
        let entry = AuditEntry(merchantId: "M", operatorName: "ada", action: .login, detail: "", address: "::1", time: time)
        let payerSession = StoredSession(
            id: "SESSION0001",
            merchantId: "M",
            version: "v",
            updateStatus: .noUpdate,
            authenticationLimit: 5,
            sealedContent: [1],
            createdAt: time,
            expiresAt: time
        )
        let change = APIPasswordChange(merchantId: "M", digest: "d", kind: .added, operatorName: "ada", time: time)
        var search = OrderQuery(merchantId: "M")
        search.orderId = "o"
        search.createdFrom = time
        search.createdBefore = time
        search.status = .captured
        search.minAmountMinorUnits = 1
        search.maxAmountMinorUnits = 2
        search.walletProvider = "APPLE_PAY"
        search.cardLastFour = "1007"
        let statements = [
            ConsoleStatements.insert(stored), ConsoleStatements.selectOperator(merchantId: "M", name: "ada"),
            ConsoleStatements.update(stored), ConsoleStatements.count(stored, over: stored),
            ConsoleStatements.clearLoginFailures(merchantId: "M", name: "ada"), ConsoleStatements.deleteOperator(merchantId: "M", name: "ada"),
            ConsoleStatements.loginFailures(address: "::1", since: time), ConsoleStatements.pruneLoginFailures(recordedAt: time),
            ConsoleStatements.insertLoginFailure(address: "::1", at: time), ConsoleStatements.insert(session),
            ConsoleStatements.selectSession(idDigest: "d"), ConsoleStatements.touchSession(idDigest: "d", at: time),
            ConsoleStatements.deleteSession(idDigest: "d"), ConsoleStatements.deleteSessions(merchantId: "M", operatorName: "ada"),
            ConsoleStatements.insert(entry), ConsoleStatements.auditEntries(merchantId: "M", limit: 5, insertionOrder: "rowid"),
            OrderSearchStatement.search(OrderQuery(merchantId: "M")) { "right(\($0), 4)" },
            OrderSearchStatement.search(search) { "substr(\($0), -4)" },
            SessionStatements.insert(payerSession), SessionStatements.select(id: payerSession.id),
            SessionStatements.replace(payerSession, expectedVersion: "u"), SessionStatements.delete(id: payerSession.id),
            SessionStatements.delete(expiredBefore: time),
            APIPasswordStatements.insert(change), APIPasswordStatements.changes(insertionOrder: nil),
            SharedKeyStatements.claim(SharedKey(name: "k", checkValue: [1], secret: nil)), SharedKeyStatements.select(name: "k"),
            OutboxStatements.orderNotificationURL(merchantId: "M", orderId: "o"),
            OutboxStatements.attemptFailed(id: 1, owner: "r", cause: "refused", retryAt: time),
            OutboxStatements.notifications(merchantId: nil, status: .pending, limit: 5), OutboxStatements.notification(id: 1),
            OutboxStatements.redeliver(id: 1, at: time), OutboxStatements.pendingBacklog,
        ]
        for statement in statements {
            #expect(Self.placeholderCount(statement.sql) == statement.values.count, "\(statement.sql)")
        }
    }

    /// Values a statement's SQL reads: one per `?`, or where they are numbered, the highest number.
    static func placeholderCount(_ sql: String) -> Int {
        let numbers = sql.split(separator: "?", omittingEmptySubsequences: false).dropFirst().map { $0.prefix { $0.isASCII && $0.isNumber } }
        guard numbers.contains(where: { !$0.isEmpty }) else { return numbers.count }
        return numbers.compactMap { Int($0) }.max() ?? 0
    }
}
