import CSQLiteWALBuffer
import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// CSQLiteWALBuffer: a commit's log frames reach the file in one write, and before any other
/// connection can see the commit.
@Suite("SQLite's write-ahead log written a commit at a time")
struct SQLiteWALBufferTests {
    @Test("a commit asks for two writes per page it changes, and makes one")
    func oneWritePerCommit() throws {
        let (connection, _) = try Self.connection(synchronous: "FULL")
        defer { connection.close() }
        try connection.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, name TEXT NOT NULL, body BLOB NOT NULL)")
        try connection.execute("CREATE INDEX rows_by_name ON rows (name)")
        // The counters are this thread's, and this test stays on its thread.
        let asked = gateway_wal_buffer_writes_asked()
        let made = gateway_wal_buffer_writes_made()
        let commits = 20
        for id in 1...commits {
            try connection.execute("BEGIN")
            // A row over two overflow pages, and its index entry: four pages or more per commit.
            let body = [UInt8](repeating: UInt8(id), count: 6_000)
            _ = try connection.query(
                "INSERT INTO rows (id, name, body) VALUES (?, ?, ?)",
                [.integer(Int64(id)), .text("row-\(id)"), .blob(body)]
            )
            try connection.execute("COMMIT")
        }
        let askedPerCommit = Double(gateway_wal_buffer_writes_asked() - asked) / Double(commits)
        let madePerCommit = Double(gateway_wal_buffer_writes_made() - made) / Double(commits)
        #expect(askedPerCommit >= 8, "a header and a page for each of four pages or more")
        #expect(madePerCommit <= 1.1, "asked \(askedPerCommit), made \(madePerCommit) per commit")
        #expect(try connection.query("SELECT count(*) FROM rows").first?.first?.integer == Int64(commits))
    }

    @Test(
        "a commit without a sync of its own is seen by another connection at once, whatever its size",
        arguments: [10, 5_000, 300_000]
    )
    func visibleWithoutSync(bytes: Int) throws {
        let (writer, path) = try Self.connection(synchronous: "NORMAL")
        let reader = try SQLiteConnection(path: path)
        defer {
            writer.close()
            reader.close()
        }
        try writer.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
        for id in 1...40 {
            let body = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &+ id) }
            try writer.execute("BEGIN")
            _ = try writer.query("INSERT INTO blobs (id, body) VALUES (?, ?)", [.integer(Int64(id)), .blob(body)])
            try writer.execute("COMMIT")
            let rows = try reader.query("SELECT body FROM blobs WHERE id = ?", [.integer(Int64(id))])
            #expect(rows.first?.first?.blob == body, "row \(id) read back at once")
        }
        #expect(try reader.query("SELECT count(*) FROM blobs").first?.first?.integer == 40)
        // The checkpoint that folds the log into the database reads what the writer wrote.
        _ = try reader.query("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try reader.query("PRAGMA integrity_check").first?.first?.text == "ok")
    }

    /// A connection on a new file in WAL mode, and the file's path.
    private static func connection(synchronous: String) throws -> (SQLiteConnection, String) {
        let path = StoreKind.newSQLitePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = \(synchronous)")
        return (connection, path)
    }
}
