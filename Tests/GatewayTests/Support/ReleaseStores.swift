import Foundation
import PostgresTestServer
import StoreTestSupport

/// Stores an earlier release wrote (Tests/GatewayTests/Fixtures/release-<commit>/), for the
/// upgrade tests: each test opens a fresh copy, so an upgrade never touches the fixture.
enum ReleaseStores {
    static func fixtures(_ release: String) -> URL {
        TestGateway.packageRoot.appendingPathComponent("Tests/GatewayTests/Fixtures/release-\(release)")
    }

    /// A copy of the release's store of this kind, as a store URL: its SQLite file in a new
    /// directory, or its PostgreSQL dump restored into a new database.
    static func copy(_ release: String, _ kind: StoreKind) async throws -> String {
        let fixtures = fixtures(release)
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("release-\(release)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("gateway.sqlite")
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("gateway.sqlite"), to: path)
            return "sqlite://\(path.path)"
        case .postgres:
            let server = try await PostgresTestServer.shared()
            let database = try await server.createNamedDatabase()
            try await server.restore(file: fixtures.appendingPathComponent("postgres.sql").path, database: database)
            return server.url(database: database)
        }
    }
}
