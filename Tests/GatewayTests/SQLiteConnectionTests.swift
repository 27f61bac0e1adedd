import Foundation
import Testing

@testable import Gateway

@Suite("SQLite text bound from Swift strings")
struct SQLiteConnectionTests {
    @Test(
        "text binds as its UTF-8 bytes and reads back the same: empty, small, long, non-ASCII",
        arguments: ["", "x", "TESTMERCHANT", "fifteen-bytes!!", String(repeating: "order-", count: 40), "é", "naïve 订单 🧾"]
    )
    func roundTrip(text: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE t (value TEXT NOT NULL)")
        _ = try connection.query("INSERT INTO t (value) VALUES (?)", [.text(text)])
        let row = try #require(try connection.query("SELECT value, length(CAST(value AS BLOB)), typeof(value) FROM t").first)
        #expect(row[0] == .text(text))
        #expect(row[1] == .integer(Int64(text.utf8.count)))
        // Never NULL, not even for "" (a nil pointer would have bound NULL).
        #expect(row[2] == .text("text"))
        // And it is found again by equality, as orders and transactions are.
        #expect(try connection.query("SELECT count(*) FROM t WHERE value = ?", [.text(text)]).first?.first == .integer(1))
    }
}
