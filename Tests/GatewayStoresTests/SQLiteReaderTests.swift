import Foundation
import NIOPosix
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

@Suite("SQLite reader: its own queue, never an event loop; closed means refused")
struct SQLiteReaderTests {
    @Test("reads run on the reader's queue, off every event loop")
    func readsOffTheEventLoops() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        let readsOnLoops = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.run { _ in MultiThreadedEventLoopGroup.currentEventLoop != nil }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(readsOnLoops == 0, "\(readsOnLoops) reads ran on an event loop")
        await store.close()
    }

    @Test("a read after close is refused with an error, not run on a closed connection")
    func readAfterClose() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        #expect(try await store.transaction(merchantId: "M", orderId: "none", transactionId: "1") == nil)
        await store.close()
        await #expect(throws: SQLiteConnection.Failure.self) {
            _ = try await store.transaction(merchantId: "M", orderId: "none", transactionId: "1")
        }
    }
}
