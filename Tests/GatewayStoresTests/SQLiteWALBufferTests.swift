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
    @Test("a record's commit asks for a write per frame header and page, and makes one or two")
    func oneWritePerCommit() async throws {
        let store = try SQLiteTransactionStore(path: StoreKind.newSQLitePath())
        #expect(try await store.record(SampleRecords.record(order: "warm-up", applePay: "warm-up")) == .recorded)
        let asked = gateway_wal_buffer_writes_asked()
        let made = gateway_wal_buffer_writes_made()
        let records = 20
        for index in 0..<records {
            #expect(try await store.record(SampleRecords.record(order: "order-\(index)", applePay: "apple-\(index)")) == .recorded)
        }
        // Other tests write meanwhile (the counters are process-wide): compare rates, not counts.
        let askedPerRecord = Double(gateway_wal_buffer_writes_asked() - asked) / Double(records)
        let madePerRecord = Double(gateway_wal_buffer_writes_made() - made) / Double(records)
        #expect(askedPerRecord >= 6, "a record changes several pages, two writes each")
        #expect(madePerRecord <= askedPerRecord / 3, "asked \(askedPerRecord), made \(madePerRecord) per record")
        await store.close()
    }

    @Test(
        "a commit without a sync of its own is seen by another connection at once, whatever its size",
        arguments: [10, 5_000, 300_000]
    )
    func visibleWithoutSync(bytes: Int) throws {
        let path = StoreKind.newSQLitePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let writer = try SQLiteConnection(path: path)
        let reader = try SQLiteConnection(path: path)
        defer {
            writer.close()
            reader.close()
        }
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA synchronous = NORMAL")
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
}
