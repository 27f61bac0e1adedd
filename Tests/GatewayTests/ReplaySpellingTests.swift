import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore
import HummingbirdTesting
import NIOPosix
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// The signature covers the transaction id's bytes, and hex spells the same bytes in either case:
/// every spelling of a used token, and every re-encryption of it, must meet the same replay record.
@Suite("Replay protection keys on the transaction id's bytes, not its spelling")
struct ReplaySpellingTests {
    /// Bytes whose hex has letters in every position pair, so case changes really change the text.
    static func transactionIdWithLetters() -> [UInt8] {
        [0xAB, 0xCD, 0xEF, 0xFA] + (0..<28).map { _ in UInt8.random(in: 0xA0...0xFF) }
    }

    /// The token with its `header.transactionId` text rewritten (the signature stays valid).
    static func respelled(_ token: String, _ spell: (String) -> String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        var header = try #require(object["header"] as? [String: Any])
        let id = try #require(header["transactionId"] as? String)
        header["transactionId"] = spell(id)
        object["header"] = header
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func alternatingCase(_ text: String) -> String {
        String(text.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
    }

    static func isReplayed(_ exchange: Exchange) -> Bool {
        exchange.status == .badRequest && exchange.string("error.explanation")?.contains("REPLAYED") == true
    }

    @Test(
        "upper-case, mixed-case and re-encrypted copies of a used token are REPLAYED, over TCP",
        arguments: StoreKind.allCases,
        [MintRequest.Version.ecV1, .rsaV1]
    )
    func respelledCopiesAreReplays(store: StoreKind, version: MintRequest.Version) async throws {
        let gateway = try await TestGateway(store: store)
        let id = Self.transactionIdWithLetters()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656, version: version) { $0.transactionId = id }
        let reencrypted = try TestGateway.mintToken(amountMinorUnits: 5656, version: version) { $0.transactionId = id }
        #expect(reencrypted != token)
        let copies = [
            try Self.respelled(token) { $0.uppercased() },
            try Self.respelled(token, Self.alternatingCase),
            reencrypted,
            try Self.respelled(reencrypted) { $0.uppercased() },
        ]
        try await gateway.application.test(.live) { client in
            let first = try await client.put(
                TestGateway.path(order: "spell-0", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(first.status == .created)
            #expect(first.string("response.gatewayCode") == "APPROVED")
            for (index, copy) in copies.enumerated() {
                let exchange = try await client.put(
                    TestGateway.path(order: "spell-\(index + 1)", transaction: "1"),
                    TestGateway.tokenBody(copy, amount: "56.56")
                )
                #expect(Self.isReplayed(exchange), "copy \(index): \(exchange.status) \(exchange.body)")
            }
            // While the application runs: it owns the store's connections.
            #expect(try await gateway.services.store.isUsed(Hex.encode(id)))
            for index in 1...copies.count {
                #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "spell-\(index)") == nil)
            }
        }
    }

    @Test("a token first accepted in upper case makes its lower-case spelling a replay", arguments: StoreKind.allCases)
    func upperCaseFirst(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656) { $0.transactionId = Self.transactionIdWithLetters() }
        try await gateway.application.test(.live) { client in
            let upper = try Self.respelled(token) { $0.uppercased() }
            let first = try await client.put(TestGateway.path(order: "upper-1", transaction: "1"), TestGateway.tokenBody(upper, amount: "56.56"))
            #expect(first.status == .created)
            let again = try await client.put(TestGateway.path(order: "upper-2", transaction: "1"), TestGateway.tokenBody(token, amount: "56.56"))
            #expect(Self.isReplayed(again))
        }
    }
}

@Suite("Replay records written by older releases")
struct ReplayRecordMigrationTests {
    @Test("SQLite: upper-case replay records of schema 2 are keyed in lower case after the upgrade")
    func sqliteUpgrade() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("respell-\(UUID().uuidString).sqlite").path
        do {
            let old = try SQLiteConnection(path: path)
            try SQLiteMigrations.migrate(old, upTo: 2)
            try old.execute(
                """
                INSERT INTO apple_pay_transactions VALUES ('ABCDEF01', 'M', 'o-1', '1', 1700000000000);
                INSERT INTO apple_pay_transactions VALUES ('abcdef01', 'M', 'o-2', '1', 1700000000001);
                INSERT INTO apple_pay_transactions VALUES ('FEDCBA98', 'M', 'o-3', '1', 1700000000002);
                """
            )
        }
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        #expect(try await store.isUsed("abcdef01"))
        #expect(try await store.isUsed("fedcba98"))
        let check = try SQLiteConnection(path: path)
        let ids = try check.query("SELECT apple_pay_transaction_id FROM apple_pay_transactions ORDER BY 1").map { $0[0].text }
        #expect(ids == ["abcdef01", "fedcba98"])
    }

    @Test("PostgreSQL: upper-case replay records of schema 2 are keyed in lower case after the upgrade")
    func postgresUpgrade() async throws {
        let server = try await PostgresTestServer.shared()
        let url = try await server.createDatabase()
        guard case .postgres(let location) = try StoreLocation(url: url) else {
            Issue.record("not postgres")
            return
        }
        let first = PostgresTransactionStore(
            location: location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await first.prepare()
        await first.close()
        // Today's schema with the records an older release wrote, and its version set back to 2.
        _ = try await server.psql(
            """
            INSERT INTO apple_pay_transactions VALUES ('ABCDEF01', 'M', 'o-1', '1', 1700000000000),
                ('abcdef01', 'M', 'o-2', '1', 1700000000001), ('FEDCBA98', 'M', 'o-3', '1', 1700000000002);
            UPDATE gateway_schema SET version = 2;
            """,
            database: location.database
        )
        let store = PostgresTransactionStore(
            location: location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await store.prepare()
        #expect(try await store.isUsed("abcdef01"))
        #expect(try await store.isUsed("fedcba98"))
        await store.close()
        let ids = try await server.psql("SELECT apple_pay_transaction_id FROM apple_pay_transactions ORDER BY 1", database: location.database)
        #expect(ids == "abcdef01\nfedcba98")
    }
}
