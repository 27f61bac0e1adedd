import Foundation
import HummingbirdTesting
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

    @Test("an AUTHORIZE with a token is one round trip over HTTP; a retry one; a new try on a declined order three")
    func oneRoundTripPerAuthorize() async throws {
        let server = try PostgresTestServer()
        defer { server.destroy() }
        let url = try server.createDatabase()
        let location = try PostgresStoreTests.location(url)
        try server.psql("ALTER DATABASE \(location.database) SET log_statement = 'all'", database: "postgres")
        let gateway = try TestGateway(storeURL: url)
        let log = server.directory.appendingPathComponent("server.log")
        /// The statements PostgreSQL ran for `work`, as its log lists them.
        @Sendable func statements(_ work: () async throws -> Void) async throws -> [Substring] {
            let before = try String(contentsOf: log, encoding: .utf8).count
            try await work()
            let written = String(try String(contentsOf: log, encoding: .utf8).dropFirst(before))
            return written.split(separator: "\n").filter { $0.contains("LOG:  execute") || $0.contains("LOG:  statement:") }
        }
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        try await gateway.application.test(.live) { client in
            // The first record also prunes old replay records (at most once a minute): not counted.
            #expect(
                try await client.put(TestGateway.path(order: "warm-up", transaction: "1"), TestGateway.cardBody(amount: "1.00")).status == .created
            )

            let authorize = try await statements {
                let exchange = try await client.put(TestGateway.path(order: "token", transaction: "1"), body)
                #expect(exchange.status == .created, "\(exchange.body)")
                #expect(exchange.string("response.gatewayCode") == "APPROVED")
            }
            #expect(authorize.count == 1, "\(authorize)")
            #expect(authorize.allSatisfy { $0.contains("gateway_record(") }, "\(authorize)")

            let retry = try await statements {
                let exchange = try await client.put(TestGateway.path(order: "token", transaction: "1"), body)
                #expect(exchange.status == .created)
            }
            #expect(retry.count == 1, "\(retry)")

            // An order whose first AUTHORIZE was declined: the optimistic write is refused, the
            // order read, and the decision written again.
            #expect(
                try await client.put(
                    TestGateway.path(order: "again", transaction: "1"),
                    TestGateway.cardBody(operation: "AUTHORIZE", amount: "57.57")
                ).string("result") == "FAILURE"
            )
            let secondTry = try await statements {
                let exchange = try await client.put(
                    TestGateway.path(order: "again", transaction: "2"),
                    TestGateway.cardBody(operation: "AUTHORIZE", amount: "56.56")
                )
                #expect(exchange.string("order.status") == "AUTHORIZED", "\(exchange.body)")
            }
            #expect(secondTry.count == 3, "\(secondTry)")
        }
    }
}
