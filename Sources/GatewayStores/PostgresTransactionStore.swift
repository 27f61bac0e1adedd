import Foundation
import GatewayCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The shared store: a PostgreSQL database that several gateway replicas use at once.
///
/// Pool: each replica holds at most `maxConnections` connections (PostgresNIO's pool). In the
/// gateway the application runs the pool as one of its services (``pool``), so it starts and
/// stops with the server; a store made for standalone use (tools, store tests) runs it itself. Every operation, its wait for a connection included, is bounded by
/// `timeout`; past it, or when the server is gone, the operation fails with
/// ``StoreUnavailable`` (SERVER_BUSY for the client) instead of hanging. The pool replaces
/// connections the server closed and retries connecting with a growing backoff, so after a
/// database restart the gateway recovers by itself. Durability: PostgreSQL's commit (with its
/// default `synchronous_commit`) is on disk before the 201 is sent.
package final class PostgresTransactionStore: TransactionStore {
    private let client: PostgresClient
    /// Only when the store runs its own pool (standalone use).
    private let running: Task<Void, Never>?
    private let timeout: Duration
    /// The server's event loops: the pool's connections and the deadlines' timers run on them.
    private let eventLoops: any EventLoopGroup
    /// Behind a transaction-pooling PgBouncer: no named prepared statements.
    private let transactionPooling: Bool
    let logger: Logger
    private let replayRetentionMilliseconds: Int64
    private let pruneIntervalMilliseconds: Int64 = 60_000
    private let schemaReady = Mutex(false)
    /// Makes an earlier release's unkeyed request hash keyed, with the migrations.
    private let seal: (@Sendable ([UInt8]) -> [UInt8])?
    /// Record time of this replica's last pruning of old replay records.
    private let lastPrune = Mutex<Int64?>(nil)
    /// Two batches in flight per replica, so one is being written while the next gathers; up to
    /// 32 records each, about the most one replica's clients have waiting at once in
    /// `scripts/bench-http`.
    private let batches: PostgresRecordBatches

    package init(
        location: PostgresLocation,
        eventLoops: any EventLoopGroup,
        maxConnections: Int = 10,
        timeout: Duration = .seconds(5),
        replayRetention: TimeInterval = 3900,
        logger: Logger = Logger(label: "gateway.postgres"),
        runsOwnPool: Bool = true,
        sealingLegacyFingerprints seal: (@Sendable ([UInt8]) -> [UInt8])? = nil
    ) {
        self.seal = seal
        var configuration = PostgresClient.Configuration(
            host: location.host,
            port: location.port,
            username: location.username,
            password: location.password,
            database: location.database,
            tls: location.requiresTLS ? .require(.makeClientConfiguration()) : .disable
        )
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters = [("application_name", "applepay-gateway")]
        // A statement stuck behind a lock fails on the server too, rather than keep its connection.
        // PgBouncer refuses that startup parameter: behind it the role's setting applies.
        if !location.transactionPooling {
            let milliseconds = timeout.components.seconds * 1000
            configuration.options.additionalStartupParameters.append(("statement_timeout", "\(milliseconds)"))
        }
        let client = PostgresClient(configuration: configuration, eventLoopGroup: eventLoops, backgroundLogger: logger)
        self.eventLoops = eventLoops
        self.client = client
        self.running = runsOwnPool ? Task { await client.run() } : nil
        self.timeout = timeout
        self.transactionPooling = location.transactionPooling
        self.logger = logger
        self.replayRetentionMilliseconds = Int64(replayRetention * 1000)
        batches = PostgresRecordBatches(maximumWriting: 2, maximumBatch: 32)
    }

    deinit { running?.cancel() }

    /// The connection pool, for the application to run as a service (when the store does not
    /// run its own): it ends on graceful shutdown, after the server has stopped.
    package var pool: any Service { client }

    /// Closes the pool's connections; the store answers nothing afterwards.
    package func close() async { running?.cancel() }

    /// Brings the schema up to date before the server starts serving (under the migration lock).
    package func prepare() async throws {
        try await run { _ in }
    }

    package func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction? {
        try await run { connection in
            try await Self.storedTransaction(connection, self.logger, merchantId, orderId, transactionId)
        }
    }

    package func order(merchantId: String, orderId: String) async throws -> StoredOrder? {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT currency, amount_minor, status, created_at_ms, initial_succeeded, total_authorized_minor,
                    total_captured_minor, total_refunded_minor, wallet_provider, reference, updated_at_ms, version
                FROM orders WHERE merchant_id = \(merchantId) AND order_id = \(orderId)
                """,
                logger: self.logger
            )
            var order: StoredOrder?
            for try await row in rows {
                let stored = PostgresStoredRow(row)
                order = StoredOrder(
                    version: try stored.integer("version"),
                    state: try OrderState(row: stored),
                    lastUpdatedTime: Date(milliseconds: try stored.integer("updated_at_ms")),
                    hasSuccessfulInitialTransaction: try stored.bool("initial_succeeded")
                )
            }
            return order
        }
    }

    package func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary] {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: ReceiptColumns.selectList), voided FROM transactions
                WHERE merchant_id = \(merchantId) AND order_id = \(orderId) ORDER BY created_at_ms, sequence
                """,
                logger: self.logger
            )
            var summaries: [TransactionSummary] = []
            for try await row in rows {
                let columns = PostgresStoredRow(row)
                summaries.append(TransactionSummary(receipt: try ReceiptColumns.receipt(columns), voided: try columns.bool("voided")))
            }
            return summaries
        }
    }

    package func isApplePayTokenUsed(_ key: ApplePayReplayKey) async throws -> Bool {
        try await run { connection in
            let rows = try await connection.query(
                """
                SELECT 1 FROM apple_pay_transactions
                WHERE apple_pay_transaction_id = \(key.transactionId) OR data_digest = \(key.dataDigestHex)
                """,
                logger: self.logger
            )
            for try await _ in rows { return true }
            return false
        }
    }

    /// A read of the table every order request reads, through the pool, on a server that takes
    /// writes: what readiness means. A standby (in recovery) answers reads but refuses every
    /// payment, so a replica that reaches one, as when a proxy still routes to a demoted primary,
    /// is not ready.
    package func checkReachable() async throws {
        let standby = try await run { connection in
            let rows = try await connection.query(
                "SELECT pg_is_in_recovery(), EXISTS (SELECT 1 FROM orders)",
                logger: self.logger
            )
            var standby = false
            for try await (inRecovery, _) in rows.decode((Bool, Bool).self) { standby = inRecovery }
            return standby
        }
        if standby { throw StoreUnavailable(reason: "the PostgreSQL server is a standby (in recovery): no primary answers") }
    }

    /// One statement, so one database transaction, with whatever records of this replica went
    /// in the same batch (``PostgresRecordBatches``); committed (on disk) before it returns
    /// `.recorded`, with nothing written for every other outcome.
    package func record(_ record: TransactionRecord) async throws -> RecordOutcome {
        // For `log.stageTrace`: handed over, then holding a pooled connection (the wait for a
        // batch and for a connection is between the two), then committed (the round trip, the
        // function and the commit).
        let stages = RequestStages.current
        stages?.submitted()
        let outcome = try await batches.record(record, stages: stages, timeout: timeout) { await self.write($0, $1, by: $2) }
        if outcome == .recorded { try await pruneIfDue(record.time.milliseconds) }
        return outcome
    }

    /// One batch's records in one statement by `deadline`, each answered with its outcome or error.
    private func write(
        _ records: [TransactionRecord],
        _ stages: [RequestStages?],
        by deadline: ContinuousClock.Instant
    ) async -> [Result<RecordOutcome, any Error>] {
        do {
            return try await run(within: ContinuousClock.now.duration(to: deadline)) { connection in
                for stage in stages { stage?.commitStarted(batchSize: records.count) }
                let results = try await PostgresRecordWriter.write(records, connection, self.logger, prepared: !self.transactionPooling)
                for stage in stages { stage?.committed() }
                return results
            }
        } catch {
            return records.map { _ in .failure(error) }
        }
    }

    /// Used Apple Pay ids older than the retention go, at most once a minute per replica.
    private func pruneIfDue(_ now: Int64) async throws {
        let due = lastPrune.withLock { last in
            if let last, now - last < pruneIntervalMilliseconds { return false }
            last = now
            return true
        }
        guard due else { return }
        let cutoff = now - replayRetentionMilliseconds
        try await run { connection in
            _ = try await connection.query(
                "DELETE FROM apple_pay_transactions WHERE accepted_at_ms < \(cutoff)",
                logger: self.logger
            )
        }
    }

    static func storedTransaction(
        _ connection: PostgresConnection,
        _ logger: Logger,
        _ merchantId: String,
        _ orderId: String,
        _ transactionId: String
    ) async throws -> StoredTransaction? {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ReceiptColumns.selectList), request_hash, response_format, response_body
            FROM transactions
            WHERE merchant_id = \(merchantId) AND order_id = \(orderId) AND transaction_id = \(transactionId)
            """,
            logger: logger
        )
        var stored: StoredTransaction?
        for try await row in rows { stored = try StoredTransaction(row: PostgresStoredRow(row)) }
        return stored
    }

    /// Runs one operation on a pooled connection within the deadline (`limit`, else the store's
    /// timeout), on a migrated schema, with connection trouble turned into ``StoreUnavailable``.
    ///
    /// A query in flight does not answer to cancellation, and on a server that stopped answering
    /// it would never return: cancelling the operation (its deadline, or a shutdown) closes its
    /// connection, which ends the query then and there instead of at the TCP timeout. The server
    /// rolls back what the connection had begun, and the pool opens another.
    func run<Value: Sendable>(
        within limit: Duration? = nil,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws
        -> Value
    {
        try await Deadline.run(limit ?? timeout, timerOn: eventLoops) {
            do {
                return try await self.client.withConnection { connection in
                    // The pool learns of a closed connection a moment after it closes, and may
                    // lend it in between. A query written to it once its channel has shut down is
                    // dropped unanswered by PostgresNIO (1.33): it would wait for ever, so it is
                    // never written.
                    guard !connection.isClosed else { throw StoreUnavailable(reason: "the pooled connection had closed") }
                    return try await withTaskCancellationHandler {
                        if !self.schemaReady.withLock({ $0 }) {
                            try await PostgresMigrations.migrate(connection, logger: self.logger, sealingLegacyFingerprints: self.seal)
                            self.schemaReady.withLock { $0 = true }
                        }
                        return try await work(connection)
                    } onCancel: {
                        let closing: EventLoopFuture<Void> = connection.close()
                        _ = closing
                    }
                }
            } catch {
                throw StoreUnavailable.classify(error)
            }
        }
    }
}
