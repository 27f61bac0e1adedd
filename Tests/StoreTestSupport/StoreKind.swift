import BlockingWork
import Foundation
import GatewayCore
import GatewayStores
import NIOPosix
import PostgresTestServer
import Testing

/// The two stores: every store-behaviour test runs against both.
package enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    package var testDescription: String { rawValue }

    /// A fresh, empty place for a store of this kind: a temporary SQLite file, or a new database
    /// on the test run's PostgreSQL server.
    package func newStoreURL(in directory: URL? = nil) async throws -> String {
        switch self {
        case .sqlite:
            return "sqlite://\(Self.newSQLitePath(in: directory))"
        case .postgres:
            return try await PostgresTestServer.shared().createDatabase()
        }
    }

    /// A path for a new SQLite file, in a directory of its own (a new temporary one by default):
    /// for tests of the SQLite store itself.
    package static func newSQLitePath(in directory: URL? = nil) -> String {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        return directory.appendingPathComponent("gateway.sqlite").path
    }
}

/// Opens stores on one URL, as a (re)started gateway would.
package struct StoreFixture {
    package let kind: StoreKind
    package let url: String

    package init(_ kind: StoreKind) async throws {
        self.kind = kind
        self.url = try await kind.newStoreURL()
    }

    /// Where a `postgres://` store URL points.
    package static func postgresLocation(_ url: String) throws -> PostgresLocation {
        guard case .postgres(let location) = try StoreLocation(url: url) else { throw PostgresTestServer.Failure(description: url) }
        return location
    }

    package func open(replayRetention: TimeInterval = 3900) async throws -> any TransactionStore {
        let store: any TransactionStore =
            switch try StoreLocation(url: url) {
            case .sqlite(let path):
                // Opened and migrated on a thread of its own: its file creation and fsyncs would
                // hold one of Swift's two cooperative threads for as long as a busy disk takes.
                try await onAThreadOfItsOwn {
                    try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton, replayRetention: replayRetention)
                }
            case .postgres(let location):
                PostgresTransactionStore(
                    location: location,
                    eventLoops: MultiThreadedEventLoopGroup.singleton,
                    timeout: PostgresTestServer.generousStoreTimeout,
                    replayRetention: replayRetention
                )
            }
        try await store.prepare()
        return store
    }
}
