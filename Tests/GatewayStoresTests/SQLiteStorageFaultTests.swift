import CSQLite
import Foundation
import NIOPosix
import StoreTestSupport
import Synchronization
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The SQLite store on a disk that fails under the write-ahead-log buffer (``FaultyDisk``): a
/// write or fsync that fails reaches the caller as the store being unable to write (SERVER_BUSY
/// to a client), readiness is down until a write succeeds again, and after a power cut that keeps
/// only what was synced, everything acknowledged is there and the database is whole.
@Suite("SQLite store on a failing disk")
struct SQLiteStorageFaultTests {
    @Test("a failing write-ahead log fails the record as the store unable to write, until a write succeeds", arguments: FaultyDisk.Fault.allCases)
    func failingLog(_ fault: FaultyDisk.Fault) async throws {
        let disk = FaultyDisk()
        let path = StoreKind.newSQLitePath()
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton, vfs: disk.vfs)
        var acknowledged: [String] = []
        for index in 0..<20 {
            #expect(try await store.record(SampleRecords.record(order: "before-\(index)")) == .recorded)
            acknowledged.append("before-\(index)")
        }
        try await store.checkReachable()

        disk.inject(fault)
        let expected: StoreUnavailable.Cause = fault == .enospcOnWrite ? .diskFull : .ioError
        for index in 0..<5 {
            do {
                let outcome = try await store.record(SampleRecords.record(order: "during-\(index)"))
                Issue.record("\(fault): recorded on a failing disk: \(outcome)")
            } catch let error as StoreUnavailable {
                #expect(error.cause == expected, "\(error)")
                // Failed before it was published: no other connection sees it.
                #expect(try await store.transaction(merchantId: "M", orderId: "during-\(index)", transactionId: "1") == nil)
            } catch {
                Issue.record("\(fault): the caller got \(error), which a client sees as SERVER_FAILED")
            }
        }
        #expect(disk.failures > 0)
        await #expect(throws: StoreUnavailable.self, "readiness with a log that cannot be written") {
            try await store.checkReachable()
        }

        // With no traffic, readiness's own write (at most one a second) finds the disk healed.
        disk.heal()
        var ready = false
        let deadline = ContinuousClock.now + .seconds(10)
        while !ready, ContinuousClock.now < deadline {
            ready = (try? await store.checkReachable()) != nil
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ready, "readiness never came back once the disk healed")
        for index in 0..<5 {
            #expect(try await store.record(SampleRecords.record(order: "after-\(index)")) == .recorded)
            acknowledged.append("after-\(index)")
        }
        disk.cutPower()
        await store.close()
        try await Self.expectAfterPowerCut(path, holding: acknowledged)
    }

    @Test("checkpoints that cannot write the database file fail alone: records go on, and survive a power cut", arguments: FaultyDisk.Fault.allCases)
    func failingCheckpoints(_ fault: FaultyDisk.Fault) async throws {
        let disk = FaultyDisk()
        let path = StoreKind.newSQLitePath()
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton, vfs: disk.vfs)
        disk.inject(fault, onDatabaseFile: true)
        var acknowledged: [String] = []
        // Well past the log size at which a checkpoint starts (a record is a few pages).
        var index = 0
        while store.checkpointer.completedCheckpoints < 2 || disk.failures == 0, index < 5_000 {
            #expect(try await store.record(SampleRecords.record(order: "checkpointed-\(index)")) == .recorded)
            acknowledged.append("checkpointed-\(index)")
            index += 1
        }
        #expect(disk.failures > 0, "no checkpoint met the fault")
        try await store.checkReachable()
        disk.cutPower()
        await store.close()
        try await Self.expectAfterPowerCut(path, holding: acknowledged)
    }

    @Test("a power cut during a burst of records and notification leases keeps every acknowledged record")
    func powerCutDuringBurst() async throws {
        let disk = FaultyDisk()
        let path = StoreKind.newSQLitePath()
        let store = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton, vfs: disk.vfs)
        let acknowledged = Acknowledged()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<8 {
                group.addTask {
                    for index in stride(from: client, to: 2_000, by: 8) {
                        var record = SampleRecords.record(order: "burst-\(index)")
                        record.notification = QueuedNotification(url: "https://merchant.example/notify", isOrderURL: false)
                        guard (try? await store.record(record)) == .recorded else { return }
                        acknowledged.add("burst-\(index)")
                    }
                }
            }
            // Leases and delivery marks commit without a sync of their own, between the records.
            group.addTask {
                while !acknowledged.powerCut {
                    let now = Date()
                    guard let leased = try? await store.leaseNotifications(owner: "test", now: now, leaseUntil: now + 60, limit: 8)
                    else { return }
                    _ = try? await store.notificationsDelivered(ids: leased.map(\.id), owner: "test", at: now)
                }
            }
            group.addTask {
                let deadline = ContinuousClock.now + .seconds(60)
                while acknowledged.orders.count < 300, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                }
                disk.cutPower()
                acknowledged.cutPower()
            }
            try await group.waitForAll()
        }
        await store.close()
        let seen = acknowledged.orders
        #expect(seen.count >= 300)
        #expect(seen.count < 2_000, "the power cut should have cut the burst short")
        try await Self.expectAfterPowerCut(path, holding: seen)
    }

    @Test("the writer of transaction records commits with synchronous = FULL after any number of unsynced leases")
    func recordsStaySynced() async throws {
        let store = try SQLiteTransactionStore(path: StoreKind.newSQLitePath(), eventLoops: MultiThreadedEventLoopGroup.singleton)
        for index in 0..<5 {
            var record = SampleRecords.record(order: "synced-\(index)")
            record.notification = QueuedNotification(url: "https://merchant.example/notify", isOrderURL: false)
            #expect(try await store.record(record) == .recorded)
            let now = Date()
            let leased = try await store.leaseNotifications(owner: "test", now: now, leaseUntil: now + 60, limit: 8)
            _ = try await store.notificationsDelivered(ids: leased.map(\.id), owner: "test", at: now)
            // 2 is FULL: SQLite's own answer, on the connection the records commit on.
            #expect(try await store.writer.perform { try $0.query("PRAGMA synchronous").first?.first?.integer } == 2)
        }
        await store.close()
    }

    /// The orders recorded, and whether the power is cut.
    private final class Acknowledged: Sendable {
        private let state = Mutex((orders: [String](), powerCut: false))
        func add(_ order: String) { state.withLock { $0.orders.append(order) } }
        func cutPower() { state.withLock { $0.powerCut = true } }
        var orders: [String] { state.withLock { $0.orders } }
        var powerCut: Bool { state.withLock { $0.powerCut } }
    }

    /// The file as the power cut left it holds every record in `acknowledged` and passes
    /// SQLite's integrity check.
    private static func expectAfterPowerCut(_ path: String, holding acknowledged: [String]) async throws {
        try FaultyDisk.restoreAfterPowerCut(path)
        let reopened = try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        var lost: [String] = []
        for order in acknowledged {
            let stored = try await reopened.transaction(merchantId: "M", orderId: order, transactionId: "1")
            if stored?.response.bytes != Array("body-\(order)".utf8) { lost.append(order) }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged records lost: \(lost.prefix(5))")
        await reopened.close()
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        #expect(try connection.query("PRAGMA integrity_check").first?.first?.text == "ok")
    }
}
