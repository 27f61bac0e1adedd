import Dispatch
import Foundation
import GatewayCore
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The embedded store: one SQLite file in WAL mode.
///
/// Durability: `synchronous=FULL` makes every commit wait for the write-ahead log to reach the
/// disk, so a 201 the client has seen survives a crash of the process or of the machine. Writes
/// go through one connection as group commits (every record waiting when a commit starts shares
/// its fsync); reads use a second connection, which WAL lets run beside the writer. Each
/// connection has its own serial queue, which keeps
/// SQLite's blocking calls off the event loops that run Swift's tasks.
package final class SQLiteTransactionStore: TransactionStore {
    let reader: SQLiteReader
    let writer: SQLiteGroupCommit
    let checkpointer: SQLiteCheckpointer

    /// - Parameter replayRetention: how long used Apple Pay transaction ids are kept (at least the
    ///   signing-time window; the gateway adds an hour for clock trouble).
    /// - Parameter seal: makes an earlier release's unkeyed request hash keyed; applied once, here.
    /// - Parameter vfs: the SQLite VFS every connection opens the file with (nil: the default);
    ///   tests name one that injects faults.
    /// - Parameter eventLoops: the server's event loops, which the group commit waits behind.
    package init(
        path: String,
        eventLoops: any EventLoopGroup,
        replayRetention: TimeInterval = 3900,
        sealingLegacyFingerprints seal: (@Sendable ([UInt8]) -> [UInt8])? = nil,
        vfs: String? = nil
    ) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.makeOwnerOnly(path)
        let writeConnection = try SQLiteConnection(path: path, vfs: vfs)
        try writeConnection.execute("PRAGMA journal_mode = WAL")
        try writeConnection.execute("PRAGMA synchronous = FULL")
        try writeConnection.execute("PRAGMA busy_timeout = 5000")
        // Each record of a group commit runs in its own savepoint, whose journal is a copy of every
        // page the record touches. Once one record's passed 64 KiB it went to a temporary file for
        // the rest of the commit: two thirds of a token AUTHORIZE's write syscalls and bytes. In
        // memory it is emptied at each RELEASE, so it holds one record's pages.
        try writeConnection.execute("PRAGMA temp_store = MEMORY")
        try SQLiteMigrations.migrate(writeConnection)
        if let seal { try Self.sealLegacyFingerprints(writeConnection, seal) }
        try Self.hashLegacySessionIds(writeConnection)
        checkpointer = try SQLiteCheckpointer(path: path, vfs: vfs)
        writeConnection.onCommit(walFrames: checkpointer.logHolds)
        // Set once, never switched: see SQLiteGroupCommit.
        let unsyncedConnection = try SQLiteConnection(path: path, vfs: vfs)
        try unsyncedConnection.execute("PRAGMA synchronous = NORMAL")
        try unsyncedConnection.execute("PRAGMA busy_timeout = 5000")
        unsyncedConnection.onCommit(walFrames: checkpointer.logHolds)
        reader = try SQLiteReader(path: path, vfs: vfs)
        writer = SQLiteGroupCommit(
            connection: writeConnection,
            unsyncedConnection: unsyncedConnection,
            ledger: try SQLiteReplayLedger(reading: writeConnection),
            replayRetention: replayRetention,
            eventLoops: eventLoops
        )
    }

    package func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction? {
        try await run { connection in
            try Self.storedTransaction(connection, merchantId, orderId, transactionId)
        }
    }

    package func order(merchantId: String, orderId: String) async throws -> StoredOrder? {
        try await run { connection in
            let rows = try connection.rows(
                """
                SELECT currency, amount_minor, status, created_at_ms, initial_succeeded, total_authorized_minor,
                    total_captured_minor, total_refunded_minor, wallet_provider, reference, updated_at_ms, version
                FROM orders WHERE merchant_id = ? AND order_id = ?
                """,
                [.text(merchantId), .text(orderId)]
            )
            return try rows.first.map { row in
                StoredOrder(
                    version: try row.integer("version"),
                    state: try OrderState(row: row),
                    lastUpdatedTime: Date(milliseconds: try row.integer("updated_at_ms")),
                    hasSuccessfulInitialTransaction: try row.bool("initial_succeeded")
                )
            }
        }
    }

    package func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary] {
        try await run { connection in
            try connection.rows(
                """
                SELECT \(ReceiptColumns.selectList), voided FROM transactions
                WHERE merchant_id = ? AND order_id = ? ORDER BY created_at_ms, rowid
                """,
                [.text(merchantId), .text(orderId)]
            ).map { row in
                TransactionSummary(receipt: try ReceiptColumns.receipt(row), voided: try row.bool("voided"))
            }
        }
    }

    /// Read from the writer's ledger, which holds the replay records the table does, and the
    /// claims of the batch being committed.
    package func isApplePayTokenUsed(_ key: ApplePayReplayKey) async throws -> Bool {
        writer.ledger.isUsed(key)
    }

    /// Queued for the next group commit; returns once the batch holding it is on disk.
    package func record(_ record: TransactionRecord) async throws -> RecordOutcome {
        try await writer.submit(record)
    }

    /// The file answers a read, and takes a write: while writes fail (a full or failing disk),
    /// a small write is tried at most once a second, and the failure is thrown until one succeeds.
    package func checkReachable() async throws {
        try await run { connection in _ = try connection.query("SELECT 1 FROM orders LIMIT 1") }
        try await writer.probeWriteIfFailing()
    }

    /// Nothing left to do: the schema was brought up to date when the file was opened.
    package func prepare() async throws {}

    /// Closes the reader and the checkpointer, then lets the writer finish its queued commits,
    /// fold the log into the database and close.
    package func close() async {
        await reader.close()
        await checkpointer.close()
        await writer.close()
    }

    /// The database holds card summaries and replay records: owner-only, from its first byte.
    /// SQLite gives its `-wal` and `-shm` files the database file's mode; ones an earlier release
    /// left readable are tightened too.
    static func makeOwnerOnly(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            throw SQLiteConnection.Failure(code: 0, message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).close()
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            guard chmod(file, 0o600) == 0 else {
                throw SQLiteConnection.Failure(code: 0, message: "cannot make \(file) owner-only: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Earlier releases stored an unkeyed SHA-256 of the request, security code included, which
    /// gave the card away to a brute force: each becomes keyed, in one transaction.
    static func sealLegacyFingerprints(_ connection: SQLiteConnection, _ seal: ([UInt8]) -> [UInt8]) throws {
        try connection.transaction {
            let rows = try connection.rows(
                "SELECT rowid, request_hash FROM transactions WHERE length(request_hash) = 32"
            )
            for row in rows {
                guard let rowid = row["rowid"].integer, let hash = row["request_hash"].blob else { continue }
                try connection.query(
                    "UPDATE transactions SET request_hash = ? WHERE rowid = ?",
                    [.blob(seal(hash)), .integer(rowid)]
                )
            }
        }
    }

    static func storedTransaction(
        _ connection: SQLiteConnection,
        _ merchantId: String,
        _ orderId: String,
        _ transactionId: String
    ) throws -> StoredTransaction? {
        let rows = try connection.rows(
            """
            SELECT \(ReceiptColumns.selectList), request_hash, response_format, response_body FROM transactions
            WHERE merchant_id = ? AND order_id = ? AND transaction_id = ?
            """,
            [.text(merchantId), .text(orderId), .text(transactionId)]
        )
        return try rows.first.map(StoredTransaction.init(row:))
    }

    /// Runs a read on the reader connection, on its queue.
    func run<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try await reader.read(work)
    }
}
