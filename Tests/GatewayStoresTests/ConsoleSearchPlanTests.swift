import Foundation
import NIOPosix
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The console's wallet and last-four indexes are partial (rows with a NULL there are left out,
/// so a plain card payment does not pay for them): a search must still be served by them, on
/// each store, which holds only while its SQL implies the indexes' `IS NOT NULL`.
@Suite("Console search plans")
struct ConsoleSearchPlanTests {
    static var lastFour: OrderQuery {
        var query = OrderQuery(merchantId: "M")
        query.cardLastFour = "1007"
        return query
    }

    static var wallet: OrderQuery {
        var query = OrderQuery(merchantId: "M")
        query.walletProvider = "APPLE_PAY"
        return query
    }

    @Test("SQLite plans the last-four and wallet searches on their partial indexes")
    func sqlite() async throws {
        let store = try SQLiteTransactionStore(path: StoreKind.newSQLitePath(), eventLoops: MultiThreadedEventLoopGroup.singleton)
        func plan(_ query: OrderQuery) async throws -> String {
            let (sql, values) = SQLiteTransactionStore.orderSearch(query)
            let rows = try await store.writer.perform { try $0.rows("EXPLAIN QUERY PLAN \(sql)", values) }
            return try rows.map { try $0.text("detail") }.joined(separator: "\n")
        }
        let lastFour = try await plan(Self.lastFour)
        #expect(lastFour.contains("USING INDEX transactions_by_card_last_four"), "\(lastFour)")
        #expect(lastFour.contains("USING INDEX transactions_by_device_last_four"), "\(lastFour)")
        let wallet = try await plan(Self.wallet)
        #expect(wallet.contains("USING INDEX orders_by_merchant_wallet"), "\(wallet)")
    }

    @Test("PostgreSQL plans the last-four and wallet searches on their partial indexes")
    func postgres() async throws {
        let fixture = try await StoreFixture(.postgres)
        _ = try await fixture.open()
        let database = try StoreFixture.postgresLocation(fixture.url).database
        let server = try await PostgresTestServer.shared()
        // With sequential scans priced out, an index the statement cannot use is still not chosen.
        func plan(_ query: OrderQuery, _ arguments: String) async throws -> String {
            let search = PostgresTransactionStore.orderSearch(query).sql
            return try await server.psql(
                "SET enable_seqscan = off; PREPARE search AS \(search); EXPLAIN EXECUTE search(\(arguments))",
                database: database
            )
        }
        let lastFour = try await plan(Self.lastFour, "'M', 'M', '1007', 11, 0")
        #expect(lastFour.contains("transactions_by_card_last_four"), "\(lastFour)")
        #expect(lastFour.contains("transactions_by_device_last_four"), "\(lastFour)")
        let wallet = try await plan(Self.wallet, "'M', 'APPLE_PAY', 11, 0")
        #expect(wallet.contains("orders_by_merchant_wallet"), "\(wallet)")
    }
}
