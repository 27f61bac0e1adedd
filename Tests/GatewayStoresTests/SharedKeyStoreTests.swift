import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// What every store must do with the keys replicas share, run against SQLite and PostgreSQL.
@Suite("Shared key store")
struct SharedKeyStoreTests {
    static func open(_ fixture: StoreFixture) async throws -> any SharedKeyStore {
        try #require(try await fixture.open() as? any SharedKeyStore)
    }

    @Test("the first claim is kept and every later one reads it back, also after reopening", arguments: StoreKind.allCases)
    func firstClaimWins(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try await Self.open(fixture)
        let name = "store.requestFingerprintKey"
        #expect(try await store.sharedKey(named: name) == nil)
        let first = SharedKey(name: name, material: Array(repeating: 1, count: 32), secret: nil)
        #expect(try await store.claimSharedKey(first) == first)
        let second = SharedKey(name: name, material: Array(repeating: 2, count: 32), secret: Array(repeating: 2, count: 32))
        #expect(try await store.claimSharedKey(second) == first)
        await #expect(throws: SharedKeyDisagreement(kind: .differs(kept: first, ours: second))) { try await store.agree(on: second) }
        try await store.agree(on: first)
        // A generated key is not adopted where the store was first used with a configured one.
        await #expect(throws: SharedKeyDisagreement(kind: .notAdoptable(kept: first))) {
            try await store.adopt(named: name) { Array(repeating: 3, count: 32) }
        }
        let reopened = try await Self.open(fixture)
        #expect(try await reopened.sharedKey(named: name) == first)
    }

    @Test("replicas adopting at once all get the one key kept first", arguments: StoreKind.allCases)
    func adoptionRace(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        // Two PostgreSQL stores are two replicas; a SQLite file has one writer, raced by tasks.
        let first = try await Self.open(fixture)
        let second = if kind == .postgres { try await Self.open(fixture) } else { first }
        let stores = [first, second]
        let adopted = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await stores[index % 2].adopt(named: "sessions.encryptionKey") { (0..<32).map { _ in UInt8.random(in: 0...255) } }
                }
            }
            return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
        }
        #expect(adopted.count == 1)
        let kept = try #require(try await stores[0].sharedKey(named: "sessions.encryptionKey"))
        #expect(kept.secret == adopted.first)
        #expect(kept.checkValue == SharedKey.checkValue(of: adopted.first ?? [], name: "sessions.encryptionKey"))
    }

    @Test("the check value is keyed and named: not a plain hash, different per name and per key")
    func checkValues() {
        let key: [UInt8] = Array(repeating: 7, count: 32)
        let value = SharedKey.checkValue(of: key, name: "sessions.encryptionKey")
        #expect(value.count == 16)
        #expect(value != SharedKey.checkValue(of: key, name: "store.requestFingerprintKey"))
        #expect(value != SharedKey.checkValue(of: Array(repeating: 8, count: 32), name: "sessions.encryptionKey"))
    }
}
