import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// What every store must do for Merchant Administration, run against SQLite and PostgreSQL alike:
/// the order search's filters and pages, and operators, sessions, failed logins and the audit log.
@Suite("Console store")
struct ConsoleStoreTests {
    static let start = Date(milliseconds: 1_800_000_000_000)

    static func open(_ fixture: StoreFixture) async throws -> any TransactionStore & ConsoleStore {
        try #require(try await fixture.open() as? any TransactionStore & ConsoleStore)
    }

    /// Order `index` of merchant M: a minute after the one before, `(index + 1) * 100` cents,
    /// AUTHORIZED when odd, Apple Pay every third, its card ending in 1000 + index.
    static func record(_ index: Int, merchant: String = "M") -> TransactionRecord {
        var record = SampleRecords.record(order: "order-\(index)")
        let lastFour = String(1000 + index)
        record.receipt.merchantId = merchant
        record.receipt.order.amountMinorUnits = Int64(index + 1) * 100
        record.receipt.order.status = index % 2 == 1 ? .authorized : .captured
        record.receipt.order.walletProvider = index % 3 == 0 ? "APPLE_PAY" : nil
        record.receipt.order.creationTime = start.addingTimeInterval(Double(index) * 60)
        record.receipt.time = record.receipt.order.creationTime
        record.receipt.card.maskedNumber = "512345xxxxxx\(lastFour)"
        record.receipt.card.device =
            index % 3 == 0 ? .init(maskedNumber: "520424xxxxxx\(lastFour)", expiry: CardExpiry(month: 2, year: 40), cryptogramFormat: .emv) : nil
        return record
    }

    func ids(_ page: OrderPage) -> [String] { page.orders.map(\.orderId) }

    @Test("the search narrows by every filter, newest first, a page at a time, one merchant only", arguments: StoreKind.allCases)
    func search(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        for index in 0..<30 { #expect(try await store.record(Self.record(index)) == .recorded) }
        #expect(try await store.record(Self.record(99, merchant: "OTHER")) == .recorded)

        var query = OrderQuery(merchantId: "M")
        query.limit = 10
        let first = try await store.searchOrders(query)
        #expect(ids(first) == (20..<30).reversed().map { "order-\($0)" })
        #expect(first.hasMore)
        query.offset = 20
        let last = try await store.searchOrders(query)
        #expect(ids(last) == (0..<10).reversed().map { "order-\($0)" })
        #expect(!last.hasMore)

        var status = OrderQuery(merchantId: "M")
        status.status = .authorized
        status.limit = 100
        let authorized = try await store.searchOrders(status)
        #expect(authorized.orders.count == 15)
        #expect(authorized.orders.allSatisfy { $0.state.status == .authorized })

        var amount = OrderQuery(merchantId: "M")
        amount.minAmountMinorUnits = 500
        amount.maxAmountMinorUnits = 900
        #expect(ids(try await store.searchOrders(amount)) == (4...8).reversed().map { "order-\($0)" })

        var dates = OrderQuery(merchantId: "M")
        dates.createdFrom = Self.start.addingTimeInterval(10 * 60)
        dates.createdBefore = Self.start.addingTimeInterval(15 * 60)
        #expect(ids(try await store.searchOrders(dates)) == (10..<15).reversed().map { "order-\($0)" })

        var card = OrderQuery(merchantId: "M")
        card.cardLastFour = "1007"
        #expect(ids(try await store.searchOrders(card)) == ["order-7"])
        card.cardLastFour = "1009"  // Apple Pay: the card and the device number both end so
        #expect(ids(try await store.searchOrders(card)) == ["order-9"])

        var wallet = OrderQuery(merchantId: "M")
        wallet.walletProvider = "APPLE_PAY"
        wallet.status = .authorized
        #expect(ids(try await store.searchOrders(wallet)) == [27, 21, 15, 9, 3].map { "order-\($0)" })

        var byId = OrderQuery(merchantId: "M")
        byId.orderId = "order-12"
        #expect(ids(try await store.searchOrders(byId)) == ["order-12"])
        var otherMerchants = OrderQuery(merchantId: "M")
        otherMerchants.orderId = "order-99"
        #expect(try await store.searchOrders(otherMerchants).orders.isEmpty)
    }

    @Test("operators, sessions, failed logins and the audit log are kept per merchant", arguments: StoreKind.allCases)
    func operators(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        let hash = try PasswordHash(password: "a long passphrase", rounds: 1000)
        let ada = StoredOperator(merchantId: "M", name: "ada", role: .admin, passwordHash: hash)
        #expect(try await store.insertOperator(ada))
        #expect(try await !store.insertOperator(ada))
        var elsewhere = ada
        elsewhere.merchantId = "OTHER"
        #expect(try await store.insertOperator(elsewhere))
        #expect(try await store.consoleOperator(merchantId: "M", name: "ada") == ada)

        var locked = ada
        locked.failedLogins = 3
        locked.lockedUntil = Self.start
        locked.role = .viewer
        #expect(try await store.updateOperator(locked))
        #expect(try await store.consoleOperator(merchantId: "M", name: "ada") == locked)
        #expect(try await store.consoleOperator(merchantId: "OTHER", name: "ada") == elsewhere)

        let session = ConsoleSession(
            idDigest: ConsoleSession.digest(ofCookie: "cookie"),
            merchantId: "M",
            operatorName: "ada",
            role: .viewer,
            csrfToken: "token",
            createdAt: Self.start,
            lastSeenAt: Self.start
        )
        try await store.insertConsoleSession(session)
        #expect(try await store.consoleSession(idDigest: session.idDigest) == session)
        try await store.touchConsoleSession(idDigest: session.idDigest, at: Self.start.addingTimeInterval(60))
        #expect(try await store.consoleSession(idDigest: session.idDigest)?.lastSeenAt == Self.start.addingTimeInterval(60))
        // Removing the operator ends their sessions.
        #expect(try await store.removeOperator(merchantId: "M", name: "ada"))
        #expect(try await !store.removeOperator(merchantId: "M", name: "ada"))
        #expect(try await store.consoleSession(idDigest: session.idDigest) == nil)

        for minute in 0..<3 { try await store.recordLoginFailure(address: "192.0.2.1", at: Self.start.addingTimeInterval(Double(minute) * 60)) }
        #expect(try await store.loginFailures(address: "192.0.2.1", since: Self.start.addingTimeInterval(60)) == 2)
        #expect(try await store.loginFailures(address: "192.0.2.2", since: Self.start) == 0)

        for (offset, action) in [AuditEntry.Action.login, .refund, .logout].enumerated() {
            try await store.appendAudit(
                AuditEntry(
                    merchantId: "M",
                    operatorName: "ada",
                    action: action,
                    detail: "d\(offset)",
                    address: "a",
                    time: Self.start.addingTimeInterval(Double(offset))
                )
            )
        }
        try await store.appendAudit(AuditEntry(merchantId: "OTHER", operatorName: "x", action: .login, detail: "", address: "a", time: Self.start))
        #expect(try await store.auditEntries(merchantId: "M", limit: 2).map(\.action) == [.logout, .refund])
        #expect(try await store.auditEntries(merchantId: "OTHER", limit: 10).count == 1)
    }

    @Test("API password changes: kept oldest first for every merchant, each recorded once, unreadable kinds refused", arguments: StoreKind.allCases)
    func apiPasswordChanges(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        let added = APIPasswordChange(merchantId: "M", digest: String(repeating: "a", count: 64), kind: .added, operatorName: "ada", time: Self.start)
        var retired = added
        retired.kind = .retired
        retired.time = Self.start.addingTimeInterval(60)
        var other = added
        other.merchantId = "OTHER"
        other.time = Self.start.addingTimeInterval(30)
        #expect(try await store.recordAPIPasswordChange(added))
        #expect(try await !store.recordAPIPasswordChange(added))  // the same form posted twice
        #expect(try await store.recordAPIPasswordChange(retired))
        #expect(try await store.recordAPIPasswordChange(other))
        #expect(try await store.apiPasswordChanges() == [added, other, retired])
    }
}
