import ApplePayToken
import Crypto
import Foundation
import GatewayConfigurationFile
import GatewayCore
import HummingbirdTesting
import PostgresTestServer
import StoreTestSupport
import Testing
import WireJSON

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// The stored request fingerprint used to be an unkeyed SHA-256 of the request, card number and
/// security code included: with the BIN, last four and expiry from the stored response, the card
/// number fell to a brute force in seconds. It is now keyed, without the security code.
@Suite("Stored request fingerprints reveal nothing about the card")
struct RequestFingerprintTests {
    static let securityCode = "9731"

    static func storedFingerprint(_ path: String, order: String) throws -> [UInt8] {
        let connection = try SQLiteConnection(path: path)
        let rows = try connection.rows(
            "SELECT request_hash FROM transactions WHERE order_id = ?",
            [.text(order)]
        )
        return try #require(rows.first?["request_hash"].blob)
    }

    static func sqlitePath(_ gateway: TestGateway) throws -> String {
        guard case .sqlite(let path) = try gateway.services.configuration.storeLocation else {
            throw CancellationError()
        }
        return path
    }

    @Test("on the SQLite file: no unkeyed hash of the request, with or without its security code; the code nowhere")
    func storedFingerprintIsKeyed() async throws {
        let gateway = try await TestGateway()
        let body = TestGateway.cardBody(operation: "AUTHORIZE", amount: "10.00", securityCode: Self.securityCode)
        try await gateway.application.test(.live) { client in
            let first = try await client.put(TestGateway.path(order: "fp-1", transaction: "1"), body)
            #expect(first.status == .created, "\(first.body)")
            // An identical retry still gets the stored answer; so does one with another security code.
            let retry = try await client.put(TestGateway.path(order: "fp-1", transaction: "1"), body)
            #expect(retry.body == first.body)
            let otherCode = TestGateway.cardBody(operation: "AUTHORIZE", amount: "10.00", securityCode: "123")
            #expect(try await client.put(TestGateway.path(order: "fp-1", transaction: "1"), otherCode).body == first.body)
            // A changed request under the same ids is still refused.
            let changed = TestGateway.cardBody(operation: "AUTHORIZE", amount: "11.00", securityCode: Self.securityCode)
            #expect(try await client.put(TestGateway.path(order: "fp-1", transaction: "1"), changed).status == .badRequest)
        }
        let path = try Self.sqlitePath(gateway)
        let stored = try Self.storedFingerprint(path, order: "fp-1")
        let request = try JSONValue(parsing: Array(body))
        #expect(stored.count == 33)
        #expect(stored != Array(SHA256.hash(data: request.serialized())))
        #expect(stored != Array(SHA256.hash(data: request.removingSecurityCodes().serialized())))
        #expect(!stored.contains(subsequence: Array(SHA256.hash(data: request.serialized()))))
        // The security code's digits appear in no stored column of the transaction.
        let connection = try SQLiteConnection(path: path)
        for row in try connection.query("SELECT * FROM transactions") {
            for column in row {
                let bytes = column.blob ?? column.text.map { Array($0.utf8) } ?? []
                #expect(!bytes.contains(subsequence: Array(Self.securityCode.utf8)))
            }
        }
    }

    @Test(
        "an earlier release's unkeyed hash is sealed when the store opens, and its identical retry still answers",
        arguments: StoreKind.allCases
    )
    func legacyFingerprintsAreSealed(kind: StoreKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fp-\(UUID().uuidString)")
        let storeURL = try await kind.newStoreURL(in: directory)
        let first = try await TestGateway(directory: directory, storeURL: storeURL)
        let body = TestGateway.cardBody(operation: "AUTHORIZE", amount: "10.00", securityCode: Self.securityCode)
        let unkeyed = Array(SHA256.hash(data: try JSONValue(parsing: Array(body)).serialized()))
        let answer = try await first.application.test(.live) { client in
            let answer = try await client.put(TestGateway.path(order: "legacy-1", transaction: "1"), body).body
            // As an earlier release stored it: SHA-256 of the whole canonical request.
            try await Self.setFingerprint(unkeyed, kind: kind, gateway: first)
            return answer
        }
        await first.services.store.close()

        let reopened = try await TestGateway(directory: directory, storeURL: storeURL)
        try await reopened.application.test(.live) { client in
            let retry = try await client.put(TestGateway.path(order: "legacy-1", transaction: "1"), body)
            #expect(retry.status == .created)
            #expect(retry.body == answer)
            let sealed = try await Self.fingerprint(kind: kind, gateway: reopened)
            #expect(sealed.count == 33)
            #expect(sealed.first == 2)
            #expect(!sealed.contains(subsequence: unkeyed))
        }
    }

    static func setFingerprint(_ value: [UInt8], kind: StoreKind, gateway: TestGateway) async throws {
        switch try gateway.services.configuration.storeLocation {
        case .sqlite(let path):
            try SQLiteConnection(path: path).query(
                "UPDATE transactions SET request_hash = ? WHERE order_id = 'legacy-1'",
                [.blob(value)]
            )
        case .postgres(let location):
            _ = try await PostgresTestServer.shared().psql(
                "UPDATE transactions SET request_hash = decode('\(Hex.encode(value))', 'hex') WHERE order_id = 'legacy-1'",
                database: location.database
            )
        }
    }

    static func fingerprint(kind: StoreKind, gateway: TestGateway) async throws -> [UInt8] {
        switch try gateway.services.configuration.storeLocation {
        case .sqlite(let path):
            return try storedFingerprint(path, order: "legacy-1")
        case .postgres(let location):
            let hex = try await PostgresTestServer.shared().psql(
                "SELECT encode(request_hash, 'hex') FROM transactions WHERE order_id = 'legacy-1'",
                database: location.database
            )
            return try #require(Hex.decode(hex.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    @Test("the fingerprint key is generated once beside the SQLite file, owner-only, and kept")
    func keyFileBesideStore() async throws {
        let gateway = try await TestGateway()
        let file = URL(fileURLWithPath: try Self.sqlitePath(gateway)).deletingLastPathComponent()
            .appendingPathComponent("request-fingerprint.key")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines).count == 64)
    }

    @Test("the SQLite database and its -wal and -shm files are owner-only")
    func databaseFilesOwnerOnly() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let body = TestGateway.cardBody(operation: "AUTHORIZE", amount: "10.00")
            #expect(try await client.put(TestGateway.path(order: "mode-1", transaction: "1"), body).status == .created)
            let path = try Self.sqlitePath(gateway)
            for file in [path, path + "-wal", path + "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
            }
        }
    }

    @Test("production on PostgreSQL refuses to start without a configured fingerprint key")
    func productionPostgresNeedsKey() throws {
        var configuration = GatewayConfiguration()
        configuration.mode = .production
        configuration.storeURL = "postgres://gateway@127.0.0.1:1/gateway"
        let error = #expect(throws: ConfigurationError.self) { try GatewayDependencies(configuration: configuration) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("store.requestFingerprintKey"))
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
