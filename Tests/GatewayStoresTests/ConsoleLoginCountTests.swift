import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// Counting console login attempts, on SQLite and PostgreSQL alike: attempts made at once each
/// see the one before, so the limit's attempt locks and none past it is counted.
@Suite("Console store: login attempts")
struct ConsoleLoginCountTests {
    static let now = Date(milliseconds: 1_800_000_000_000)

    static func store(_ kind: StoreKind) async throws -> any ConsoleStore {
        let store = try #require(try await StoreFixture(kind).open() as? any ConsoleStore)
        let hash = try PasswordHash(password: "a password", rounds: 1000)
        #expect(try await store.insertOperator(StoredOperator(merchantId: "M", name: "carol", role: .admin, passwordHash: hash)))
        return store
    }

    @Test("12 attempts at once: exactly the limit are counted, the last of them locks, the rest find the lock", arguments: StoreKind.allCases)
    func concurrentAttempts(kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        let policy = ConsolePolicy()
        let attempts = try await withThrowingTaskGroup(of: LoginAttempt.self) { group in
            for _ in 0..<12 {
                group.addTask { try await store.countLoginAttempt(merchantId: "M", name: "carol") { policy.count($0, at: Self.now) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let counts = attempts.compactMap { attempt -> Int? in
            if case .counted(let stored) = attempt { return stored.failedLogins }
            return nil
        }
        #expect(counts.sorted() == Array(1...policy.operatorFailureLimit))
        let lockedUntil = Self.now.addingTimeInterval(policy.operatorLockout)
        #expect(attempts.filter { $0 == .locked(until: lockedUntil) }.count == 12 - policy.operatorFailureLimit)
        let carol = try await store.consoleOperator(merchantId: "M", name: "carol")
        #expect(carol?.failedLogins == policy.operatorFailureLimit)
        #expect(carol?.lockedUntil == lockedUntil)
        #expect(try await store.countLoginAttempt(merchantId: "M", name: "nobody") { policy.count($0, at: Self.now) } == .unknown)
    }

    @Test("a right password clears the count; an ended lockout starts a fresh one", arguments: StoreKind.allCases)
    func clearAndExpire(kind: StoreKind) async throws {
        let store = try await Self.store(kind)
        let policy = ConsolePolicy()
        for _ in 0..<3 { _ = try await store.countLoginAttempt(merchantId: "M", name: "carol") { policy.count($0, at: Self.now) } }
        try await store.clearLoginFailures(merchantId: "M", name: "carol")
        #expect(try await store.consoleOperator(merchantId: "M", name: "carol")?.failedLogins == 0)
        for _ in 0..<policy.operatorFailureLimit {
            _ = try await store.countLoginAttempt(merchantId: "M", name: "carol") { policy.count($0, at: Self.now) }
        }
        let later = Self.now.addingTimeInterval(policy.operatorLockout + 1)
        let fresh = try await store.countLoginAttempt(merchantId: "M", name: "carol") { policy.count($0, at: later) }
        guard case .counted(let carol) = fresh else {
            Issue.record("after the lockout: \(fresh)")
            return
        }
        #expect(carol.failedLogins == 1)
        #expect(carol.lockedUntil == nil)
    }
}
