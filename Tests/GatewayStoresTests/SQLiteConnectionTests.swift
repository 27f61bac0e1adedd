import Foundation
import NIOPosix
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

@Suite("SQLite: text bound from Swift strings, rows read by column type")
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

    @Test("stored rows are read as the types their columns hold: NULL or another type throws, never reads as 0 or \"\"")
    func unreadableRows() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        #expect(try await store.record(SampleRecords.record(order: "o")) == .recorded)
        #expect(try await store.order(merchantId: "M", orderId: "o")?.state.amountMinorUnits == 100)
        await store.close()

        // Rows written by something else: an amount gone NULL (in a copy of the table without its
        // NOT NULL), a transaction id stored as bytes.
        let other = try SQLiteConnection(path: path)
        _ = try other.query("CREATE TABLE orders_copy AS SELECT * FROM orders")
        _ = try other.query("UPDATE transactions SET transaction_id = x'07'")
        _ = try other.query("DROP TABLE orders")
        _ = try other.query("CREATE TABLE orders AS SELECT * FROM orders_copy")
        _ = try other.query("UPDATE orders SET amount_minor = NULL")
        other.close()

        let reopened = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        await #expect { _ = try await reopened.order(merchantId: "M", orderId: "o") } throws: { error in
            "\(error)".contains("amount_minor") && "\(error)".contains("NULL")
        }
        await #expect { _ = try await reopened.transactions(merchantId: "M", orderId: "o") } throws: { error in
            "\(error)".contains("transaction_id")
        }
        await reopened.close()
    }
}
