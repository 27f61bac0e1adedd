import Foundation
import PostgresTestServer
import Testing

@testable import Gateway

/// The record decision moved to the core, but PostgreSQL still applies it in one statement:
/// counted in the server's own statement log.
@Suite("PostgreSQL round trips")
struct PostgresRoundTripTests {
    @Test("recording a transaction is one statement, so one round trip")
    func oneStatementPerRecord() async throws {
        // A server of its own: every statement in its log is this test's.
        let server = try PostgresTestServer()
        defer { server.destroy() }
        let url = try server.createDatabase()
        let location = try PostgresStoreTests.location(url)
        try server.psql("ALTER DATABASE \(location.database) SET log_statement = 'all'", database: "postgres")
        let store = PostgresTransactionStore(location: location, timeout: .seconds(20))
        try await store.prepare()
        // The first record also prunes old replay records (at most once a minute): not counted.
        #expect(try await store.record(StoreTests.record(order: "warm-up")) == .recorded)

        let log = server.directory.appendingPathComponent("server.log")
        let before = try String(contentsOf: log, encoding: .utf8).count
        var capture = StoreTests.record(order: "warm-up", transaction: "2")
        capture.isInitial = false
        capture.transactionType = .capture
        capture.expectedOrderVersion = 1
        #expect(try await store.record(capture) == .recorded)
        #expect(try await store.record(StoreTests.record(order: "second", applePay: "apple-round-trip")) == .recorded)
        await store.close()

        let written = String(try String(contentsOf: log, encoding: .utf8).dropFirst(before))
        let statements = written.split(separator: "\n").filter { $0.contains("LOG:  execute") || $0.contains("LOG:  statement:") }
        #expect(statements.count == 2, "\(statements)")
        #expect(statements.allSatisfy { $0.contains("gateway_record(") }, "\(statements)")
    }
}
