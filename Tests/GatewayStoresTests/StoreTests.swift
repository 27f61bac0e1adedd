import Foundation
import NIOPosix
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// What every store must do, run against SQLite and PostgreSQL alike.
@Suite("Store behaviour")
struct StoreTests {
    @Test("concurrent records: races between them are decided one by one", arguments: StoreKind.allCases)
    func concurrentRaces(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try await fixture.open()
        let outcomes = try await withThrowingTaskGroup(of: (Int, RecordOutcome).self) { group in
            for index in 0..<60 {
                group.addTask {
                    // 0-19: distinct orders; 20-39: one Apple Pay token used by 20 orders; 40-59: one order, one id.
                    let record: TransactionRecord =
                        switch index {
                        case 0..<20: SampleRecords.record(order: "distinct-\(index)")
                        case 20..<40: SampleRecords.record(order: "token-\(index)", applePay: "apple-1")
                        default: SampleRecords.record(order: "same")
                        }
                    return (index, try await store.record(record))
                }
            }
            return try await group.reduce(into: [Int: RecordOutcome]()) { $0[$1.0] = $1.1 }
        }
        #expect((0..<20).allSatisfy { outcomes[$0] == .recorded })
        #expect((20..<40).filter { outcomes[$0] == .recorded }.count == 1)
        #expect((20..<40).filter { outcomes[$0] == .applePayReplay }.count == 19)
        #expect((40..<60).filter { outcomes[$0] == .recorded }.count == 1)
        #expect((40..<60).filter { if case .duplicateTransaction = outcomes[$0] { true } else { false } }.count == 19)

        // The losers left nothing behind; the winners are all readable, also after reopening.
        let reopened = try await fixture.open()
        for index in 0..<20 {
            let stored = try await reopened.transaction(merchantId: "M", orderId: "distinct-\(index)", transactionId: "1")
            #expect(stored?.response.bytes == Array("body-distinct-\(index)".utf8))
        }
        let tokenOrders = try await (20..<40).asyncCount { try await reopened.order(merchantId: "M", orderId: "token-\($0)") != nil }
        #expect(tokenOrders == 1)
        #expect(try await reopened.isUsed("apple-1"))
        #expect(try await !reopened.isUsed("apple-2"))
    }

    @Test("a token is refused when either replay key was used: its data digest, or its transaction id", arguments: StoreKind.allCases)
    func eitherReplayKeyRefuses(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).open()
        let used = ApplePayReplayKey.named("used")
        var first = SampleRecords.record(order: "keys-1")
        first.applePayReplay = used
        #expect(try await store.record(first) == .recorded)

        // The same ciphertext under another transaction id: bytes moved between header fields.
        var sameData = SampleRecords.record(order: "keys-2")
        sameData.applePayReplay = ApplePayReplayKey(transactionId: "other", dataDigest: used.dataDigest)
        #expect(try await store.record(sameData) == .applePayReplay)
        // Another ciphertext claiming the used transaction id.
        var sameId = SampleRecords.record(order: "keys-3")
        sameId.applePayReplay = ApplePayReplayKey(transactionId: "used", dataDigest: [1, 2, 3])
        #expect(try await store.record(sameId) == .applePayReplay)
        #expect(try await store.isApplePayTokenUsed(ApplePayReplayKey(transactionId: "x", dataDigest: used.dataDigest)))
        #expect(try await store.isApplePayTokenUsed(ApplePayReplayKey(transactionId: "used", dataDigest: [9])))
        #expect(try await !store.isApplePayTokenUsed(ApplePayReplayKey(transactionId: "x", dataDigest: [9])))
        for order in ["keys-2", "keys-3"] {
            #expect(try await store.order(merchantId: "M", orderId: order) == nil)
        }
    }

    @Test("a second initial transaction after a success is refused by the store itself", arguments: StoreKind.allCases)
    func initialAfterSuccess(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).open()
        #expect(try await store.record(SampleRecords.record(order: "o", transaction: "1")) == .recorded)
        var second = SampleRecords.record(order: "o", transaction: "2")
        second.expectedOrderVersion = 1
        #expect(try await store.record(second) == .orderAlreadySucceeded)
        var stale = SampleRecords.record(order: "o", transaction: "3")
        stale.isInitial = false
        stale.expectedOrderVersion = 0  // decided on an order version that is gone
        #expect(try await store.record(stale) == .orderChanged)
        #expect(try await store.transaction(merchantId: "M", orderId: "o", transactionId: "2") == nil)
    }

    @Test("a follow-on transaction moves the order's version; a void marks its target", arguments: StoreKind.allCases)
    func followOnAndVoid(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).open()
        var authorization = SampleRecords.record(order: "v", transaction: "auth")
        authorization.transactionType = "AUTHORIZATION"
        #expect(try await store.record(authorization) == .recorded)
        var capture = SampleRecords.record(order: "v", transaction: "capture")
        capture.isInitial = false
        capture.transactionType = "CAPTURE"
        capture.expectedOrderVersion = 1
        capture.order.status = "CAPTURED"
        #expect(try await store.record(capture) == .recorded)
        var void = SampleRecords.record(order: "v", transaction: "void")
        void.isInitial = false
        void.transactionType = "VOID_CAPTURE"
        void.targetTransactionId = "capture"
        void.voidsTarget = true
        void.expectedOrderVersion = 2
        void.order.status = "AUTHORIZED"
        #expect(try await store.record(void) == .recorded)

        let order = try #require(try await store.order(merchantId: "M", orderId: "v"))
        #expect(order.version == 3)
        #expect(order.state.status == "AUTHORIZED")
        #expect(order.hasSuccessfulInitialTransaction)
        let transactions = try await store.transactions(merchantId: "M", orderId: "v")
        #expect(transactions.map(\.transactionId) == ["auth", "capture", "void"])
        #expect(transactions.map(\.voided) == [false, true, false])
        #expect(transactions.map(\.type) == ["AUTHORIZATION", "CAPTURE", "VOID_CAPTURE"])
        // Every column comes back as written, on both stores.
        #expect(transactions.last?.receipt == void.receipt)
        #expect(transactions.first?.receipt == authorization.receipt)
    }

    @Test("a database from a newer gateway is refused rather than misread", arguments: StoreKind.allCases)
    func newerSchema(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        _ = try await fixture.open()
        switch try StoreLocation(url: fixture.url) {
        case .sqlite(let path):
            try SQLiteConnection(path: path).execute("PRAGMA user_version = 99")
        case .postgres(let location):
            try await PostgresTestServer.shared().psql("UPDATE gateway_schema SET version = 99", database: location.database)
        }
        await #expect { _ = try await fixture.open() } throws: { "\($0)".contains("schema version 99") }
    }
}

extension Range where Bound == Int {
    func asyncCount(_ predicate: (Int) async throws -> Bool) async rethrows -> Int {
        var count = 0
        for value in self where try await predicate(value) { count += 1 }
        return count
    }
}

@Suite("SQLite migrations")
struct SQLiteMigrationTests {
    @Test("a database written by schema version 1 is upgraded in place, its rows kept and backfilled")
    func upgradeFromVersion1() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString).sqlite").path
        do {
            let old = try SQLiteConnection(path: path)
            try SQLiteMigrations.migrate(old, upTo: 1)
            try old.execute(
                """
                INSERT INTO orders VALUES ('M', 'old-order', 'USD', 5656, 'AUTHORIZED', 5656, 0, 0, 'APPLE_PAY', NULL, 1,
                    1700000000000, 1700000000000);
                INSERT INTO transactions VALUES ('M', 'old-order', '1', 'AUTHORIZE', x'00', CAST('\(Self.schema1Response)' AS BLOB),
                    'SUCCESS', 'APPROVED', 5656, 'USD', '07', 'apple-old', 1700000000000);
                INSERT INTO apple_pay_transactions VALUES ('apple-old', 'M', 'old-order', '1', 1700000000000);
                """
            )
            #expect(try old.query("PRAGMA user_version").first?.first?.integer == 1)
        }
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        let check = try SQLiteConnection(path: path)
        #expect(try check.query("PRAGMA user_version").first?.first?.integer == Int64(SQLiteMigrations.steps.count))
        let transactions = try await store.transactions(merchantId: "M", orderId: "old-order")
        #expect(transactions.map(\.type) == ["AUTHORIZATION"])
        #expect(transactions.first?.succeeded == true)
        #expect(transactions.first?.voided == false)
        let order = try #require(try await store.order(merchantId: "M", orderId: "old-order"))
        #expect(order.version == 1)
        #expect(order.state.totalAuthorizedMinorUnits == 5656)
        #expect(try await store.isUsed("apple-old"))
        // The typed columns, filled from the response that release stored.
        let receipt = try #require(transactions.first?.receipt)
        #expect(receipt.version.number == 45)
        #expect(receipt.card.maskedNumber == "520424xxxxxx1488" && receipt.card.expiry == nil)
        #expect(receipt.order.totalAuthorizedMinorUnits == 5656 && receipt.order.status == "AUTHORIZED")
        #expect(receipt.transactionSource == "INTERNET")
    }

    /// An AUTHORIZE response as schema 1's release wrote it: no expiry, no transaction source.
    static let schema1Response = [
        #"{"merchant":"M","order":{"amount":56.56,"currency":"USD","id":"old-order","status":"AUTHORIZED","#,
        #""totalAuthorizedAmount":56.56,"totalCapturedAmount":0.0,"totalRefundedAmount":0.0,"walletProvider":"APPLE_PAY"},"#,
        #""response":{"gatewayCode":"APPROVED"},"result":"SUCCESS","sourceOfFunds":{"provided":{"card":{"brand":"MASTERCARD","#,
        #""number":"520424xxxxxx1488","scheme":"MASTERCARD"}},"type":"CARD"},"transaction":{"amount":56.56,"currency":"USD","#,
        #""id":"1","type":"AUTHORIZATION"},"version":"45"}"#,
    ].joined()
}

@Suite("Replay record pruning")
struct ReplayPruningTests {
    @Test("used Apple Pay transaction ids older than the retention are pruned; newer ones stay", arguments: StoreKind.allCases)
    func pruning(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).open(replayRetention: 600)
        var old = SampleRecords.record(order: "old", applePay: "apple-old")
        old.time = Date(milliseconds: 1_700_000_000_000)
        #expect(try await store.record(old) == .recorded)
        #expect(try await store.isUsed("apple-old"))

        var recent = SampleRecords.record(order: "recent", applePay: "apple-recent")
        recent.time = Date(milliseconds: 1_700_000_000_000 + 300_000)  // 5 minutes later: within retention
        #expect(try await store.record(recent) == .recorded)
        #expect(try await store.isUsed("apple-old"))

        var later = SampleRecords.record(order: "later", applePay: "apple-later")
        later.time = Date(milliseconds: 1_700_000_000_000 + 3_600_000)  // an hour later
        #expect(try await store.record(later) == .recorded)
        #expect(try await !store.isUsed("apple-old"))
        #expect(try await !store.isUsed("apple-recent"))
        #expect(try await store.isUsed("apple-later"))
        // The transactions themselves are kept: only the replay index is pruned.
        #expect(try await store.transaction(merchantId: "M", orderId: "old", transactionId: "1") != nil)
    }

    @Test("a record valid beyond its transaction (a Google Pay message) is kept for the retention after it expires", arguments: StoreKind.allCases)
    func keptUntilValidityEnds(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).open(replayRetention: 600)
        let start = Date(milliseconds: 1_700_000_000_000)
        var message = SampleRecords.record(order: "message", applePay: "google-message")
        message.time = start
        message.applePayReplay?.validUntil = start.addingTimeInterval(7 * 24 * 3600)  // a week
        #expect(try await store.record(message) == .recorded)
        // A day later, far past the retention from the transaction: the message is still valid,
        // so its record must still refuse it.
        var dayLater = SampleRecords.record(order: "day-later", applePay: "apple-day-later")
        dayLater.time = start.addingTimeInterval(24 * 3600)
        #expect(try await store.record(dayLater) == .recorded)
        #expect(try await store.isUsed("google-message"))
        // Past its expiry and the retention after it, it goes.
        var weekLater = SampleRecords.record(order: "week-later", applePay: "apple-week-later")
        weekLater.time = start.addingTimeInterval(7 * 24 * 3600 + 3600)
        #expect(try await store.record(weekLater) == .recorded)
        #expect(try await !store.isUsed("google-message"))
    }
}
