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

/// The record decision moved to the core, but PostgreSQL still applies it in one statement:
/// counted in the server's own statement log.
@Suite("PostgreSQL round trips")
struct PostgresRoundTripTests {
    /// A PostgreSQL server of the test's own, logging every statement: everything in its log is
    /// the test's.
    struct LoggingServer: Sendable {
        let server: PostgresTestServer
        let url: String
        let location: PostgresLocation

        init() async throws {
            server = try await PostgresTestServer.started()
            url = try await server.createDatabase()
            location = try StoreFixture.postgresLocation(url)
            try await server.psql("ALTER DATABASE \(location.database) SET log_statement = 'all'", database: "postgres")
        }

        /// The statements PostgreSQL ran for `work`, as its log lists them.
        func statements(_ work: () async throws -> Void) async throws -> [Substring] {
            let log = server.directory.appendingPathComponent("server.log")
            let before = try String(contentsOf: log, encoding: .utf8).count
            try await work()
            let written = String(try String(contentsOf: log, encoding: .utf8).dropFirst(before))
            return written.split(separator: "\n").filter { $0.contains("LOG:  execute") || $0.contains("LOG:  statement:") }
        }

        /// The statements `work`'s requests made: without the delivery loop's outbox polls
        /// (a transaction's own outbox write is part of its `gateway_record_batch` statement), and
        /// without the end of a transaction another connection began before `work` (a start-up
        /// migration that waited for the migration lock and commits late on a loaded machine).
        /// A transaction the requests begin still counts whole: its BEGIN is in the window.
        /// Nor does any of a start-up migration: a pooled connection whose first use began
        /// before the schema was ready migrates too, and one that waited for the lock on a loaded
        /// machine ran its schema read and legacy-fingerprint scan inside the window (CI, once).
        func requestStatements(_ work: () async throws -> Void) async throws -> [Substring] {
            let statements = try await statements(work).filter {
                ($0.contains("gateway_record_batch(") || !$0.contains("notification_outbox")) && !$0.contains("api_password_changes")
            }
            let requests = Self.withoutMigrations(statements)
            let began = Set(requests.filter { $0.contains(": BEGIN") }.map(Self.backend))
            return requests.filter { line in
                let ends = line.contains(": COMMIT") || line.contains(": ROLLBACK")
                return !ends || began.contains(Self.backend(line))
            }
        }

        /// The lines without those of migrations, backend by backend: from the migration's
        /// BEGIN (or its first line in the window) to its COMMIT. The same connection may serve
        /// a request afterwards, so only the migration's own lines go.
        static func withoutMigrations(_ lines: [Substring]) -> [Substring] {
            let markers = ["pg_advisory_xact_lock", "gateway_schema", "length(request_hash) = 32"]
            var migrating: Set<Substring> = []
            var lastBegin: [Substring: Int] = [:]
            var keep = Array(repeating: true, count: lines.count)
            for (index, line) in lines.enumerated() {
                let backend = backend(line)
                if markers.contains(where: { line.contains($0) }) {
                    migrating.insert(backend)
                    if let begin = lastBegin[backend] { keep[begin] = false }
                }
                if migrating.contains(backend) {
                    keep[index] = false
                    if line.contains(": COMMIT") || line.contains(": ROLLBACK") { migrating.remove(backend) }
                }
                lastBegin[backend] = line.contains(": BEGIN") ? index : nil
            }
            return lines.indices.filter { keep[$0] }.map { lines[$0] }
        }

        /// The backend's process id a log line names (`... UTC [17103] LOG: ...`).
        static func backend(_ line: Substring) -> Substring {
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return "" }
            return line[line.index(after: open)..<close]
        }
    }

    @Test("a late start-up migration's lines are not a request's, though its connection may serve one next")
    func lateMigrationIsLeftOut() {
        // As CI logged them, a migration that waited for the lock, then a request on the same
        // connection and one on another.
        let lines: [Substring] = [
            "2026-11-28 03:40:53.129 UTC [16129] LOG:  execute <unnamed>: SELECT version FROM gateway_schema",
            "2026-11-28 03:40:53.183 UTC [16129] LOG:  execute <unnamed>: SELECT sequence, request_hash FROM transactions WHERE length(request_hash) = 32",
            "2026-11-28 03:40:53.190 UTC [16129] LOG:  statement: COMMIT",
            "2026-11-28 03:40:53.200 UTC [16129] LOG:  execute gateway_record_outbox: WITH r AS MATERIALIZED (SELECT * FROM gateway_record($1))",
            "2026-11-28 03:40:53.210 UTC [16130] LOG:  statement: BEGIN",
            "2026-11-28 03:40:53.211 UTC [16130] LOG:  execute <unnamed>: SELECT pg_advisory_xact_lock(1)",
            "2026-11-28 03:40:53.212 UTC [16130] LOG:  statement: COMMIT",
            "2026-11-28 03:40:53.419 UTC [15866] LOG:  execute gateway_record_outbox: WITH r AS MATERIALIZED (SELECT * FROM gateway_record($1))",
        ]
        let kept = LoggingServer.withoutMigrations(lines)
        #expect(kept.map(LoggingServer.backend) == ["16129", "15866"])
        #expect(kept.allSatisfy { $0.contains("gateway_record(") })
    }

    @Test("recording a transaction is one statement, so one round trip")
    func oneStatementPerRecord() async throws {
        let postgres = try await LoggingServer()
        defer { postgres.server.destroy() }
        let store = PostgresTransactionStore(
            location: postgres.location,
            eventLoops: MultiThreadedEventLoopGroup.singleton,
            timeout: PostgresTestServer.generousStoreTimeout
        )
        try await store.prepare()
        // The first record also prunes old replay records (at most once a minute): not counted.
        #expect(try await store.record(SampleRecords.record(order: "warm-up")) == .recorded)

        let statements = try await postgres.statements {
            var capture = SampleRecords.record(order: "warm-up", transaction: "2")
            capture.isInitial = false
            capture.transactionType = .capture
            capture.expectedOrderVersion = 1
            let captured = try await store.record(capture)
            let second = try await store.record(SampleRecords.record(order: "second", applePay: "apple-round-trip"))
            #expect(captured == .recorded)
            #expect(second == .recorded)
            await store.close()
        }
        #expect(statements.count == 2, "\(statements)")
        #expect(statements.allSatisfy { $0.contains("gateway_record_batch(") }, "\(statements)")
    }

    @Test("an AUTHORIZE with a token is one round trip over HTTP; a retry one; a new try on a declined order three")
    func oneRoundTripPerAuthorize() async throws {
        let postgres = try await LoggingServer()
        defer { postgres.server.destroy() }
        let gateway = try await TestGateway(storeURL: postgres.url)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        try await gateway.application.test(.live) { client in
            // The first record also prunes old replay records (at most once a minute): not counted.
            #expect(
                try await client.put(TestGateway.path(order: "warm-up", transaction: "1"), TestGateway.cardBody(amount: "1.00")).status == .created
            )

            // The notification delivery loop polls the outbox beside the requests: its statements
            // are its own, not the request's round trips.
            let authorize = try await postgres.requestStatements {
                let exchange = try await client.put(TestGateway.path(order: "token", transaction: "1"), body)
                #expect(exchange.status == .created, "\(exchange.body)")
                #expect(exchange.string("response.gatewayCode") == "APPROVED")
            }
            #expect(authorize.count == 1, "\(authorize)")
            #expect(authorize.allSatisfy { $0.contains("gateway_record_batch(") }, "\(authorize)")

            let retry = try await postgres.requestStatements {
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
            let secondTry = try await postgres.requestStatements {
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
