import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// What every store must do with gateway tokens, run against SQLite and PostgreSQL alike.
@Suite("Token store")
struct TokenStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func open(_ fixture: StoreFixture) async throws -> any TokenStore {
        try #require(try await fixture.open() as? any TokenStore)
    }

    @Test("a token is kept per merchant: inserted once, read back, replaced, deleted, also after reopening", arguments: StoreKind.allCases)
    func lifecycle(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try await Self.open(fixture)
        let token = StoredToken.new(token: "9123456789012344", merchantId: "M1", sealedCard: [1, 2, 3], now: Self.now)
        #expect(try await store.insertToken(token))
        // The same token in the same repository is refused; another merchant's repository may hold it.
        #expect(try await !store.insertToken(token))
        var other = token
        other.merchantId = "M2"
        other.sealedCard = [9]
        #expect(try await store.insertToken(other))

        #expect(try await store.token(merchantId: "M1", token: token.token) == token)
        #expect(try await store.token(merchantId: "M2", token: token.token)?.sealedCard == [9])
        #expect(try await store.token(merchantId: "M3", token: token.token) == nil)

        var updated = token
        updated.sealedCard = [4, 5]
        updated.updatedAt = Self.now.addingTimeInterval(10)
        #expect(try await store.replaceToken(updated))
        var missing = updated
        missing.token = "9000000000000000"
        #expect(try await !store.replaceToken(missing))

        let reopened = try await Self.open(fixture)
        #expect(try await reopened.token(merchantId: "M1", token: token.token) == updated)
        #expect(try await reopened.deleteToken(merchantId: "M1", token: token.token))
        #expect(try await !reopened.deleteToken(merchantId: "M1", token: token.token))
        #expect(try await reopened.token(merchantId: "M1", token: token.token) == nil)
        // Deleting one merchant's token leaves another's alone.
        #expect(try await reopened.token(merchantId: "M2", token: token.token)?.sealedCard == [9])
    }

    @Test("concurrent inserts of one token: exactly one wins", arguments: StoreKind.allCases)
    func concurrentInserts(kind: StoreKind) async throws {
        let store = try await Self.open(try await StoreFixture(kind))
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await store.insertToken(
                        StoredToken.new(token: "9000000000000018", merchantId: "M", sealedCard: [UInt8(index)], now: Self.now)
                    )
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(wins == 1)
    }
}
