import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replicas on one store hold the same request fingerprint key, session key and sandbox
/// authority, or refuse to start naming the one that differs (issue 59, finding 2): none
/// answers an identical retry as "different details", a session with 500 or a sandbox token as
/// UNTRUSTED_CHAIN because its key files are not the other's.
@Suite("Replicas agree on their shared keys", .blocksThreads)
struct SharedKeyReplicaTests {
    @Test("two sandbox replicas with no shared files agree: an identical retry, a session, a gateway token, a sandbox token")
    func sandboxReplicasWithOwnFiles() async throws {
        let store = try await PostgresTestServer.shared().createDatabase()
        let first = try await RunningGateway(storeURL: store, sandboxAuthority: Self.ownDataDirectory(), environment: Self.quiet)
        defer { first.process.terminate() }
        let second = try await RunningGateway(storeURL: store, sandboxAuthority: Self.ownDataDirectory(), environment: Self.quiet)
        defer { second.process.terminate() }
        let (a, b) = (first.port, second.port)

        let body = ReplicaCluster.cardBody(amount: "12.00")
        let paid = try await ReplicaCluster.send(port: a, "/order/keys-1/transaction/1", body: body)
        #expect(paid.status == 201)
        let retry = try await ReplicaCluster.send(port: b, "/order/keys-1/transaction/1", body: body)
        #expect(retry.status == 201, "\(String(decoding: retry.body, as: UTF8.self))")
        #expect(retry.body == paid.body)

        let created = try await TokenReplicaTests.send(port: a, "POST", "/session", body: Self.card)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let sessionId = try #require((ReplicaCluster.json(created.body)["session"] as? [String: Any])?["id"] as? String)
        let session = try await TokenReplicaTests.send(port: b, "GET", "/session/\(sessionId)")
        #expect(session.status == 200, "\(String(decoding: session.body, as: UTF8.self))")
        #expect(String(decoding: session.body, as: UTF8.self).contains("512345xxxxxx0008"))

        let tokenized = try await TokenReplicaTests.send(port: a, "POST", "/token", body: Self.card)
        let token = try #require(ReplicaCluster.json(tokenized.body)["token"] as? String)
        let read = try await TokenReplicaTests.send(port: b, "GET", "/token/\(token)")
        #expect(read.status == 200, "\(String(decoding: read.body, as: UTF8.self))")

        let minted = try await Self.mintSandboxToken(port: a, amount: "12.34")
        let authorized = try await ReplicaCluster.send(port: b, "/order/keys-2/transaction/1", body: Self.authorize(token: minted, amount: "12.34"))
        #expect(authorized.status == 201, "\(String(decoding: authorized.body, as: UTF8.self))")
        #expect(ReplicaCluster.json(authorized.body)["result"] as? String == "SUCCESS")
    }

    @Test("a replica with an earlier release's key files makes them the store's; a replica without any adopts them")
    func formerKeyFilesAreAdopted() async throws {
        let server = try await PostgresTestServer.shared()
        let database = try await server.createNamedDatabase()
        // What an earlier release left in a replica's data directory.
        let former = Self.ownDataDirectory()
        let fingerprintKey = String(repeating: "ab", count: 32)
        try FileManager.default.createDirectory(at: former.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (fingerprintKey + "\n").write(
            to: former.deletingLastPathComponent().appending(path: "request-fingerprint.key"),
            atomically: true,
            encoding: .utf8
        )
        try ReplicaCluster.authority.write(to: former)

        let first = try await RunningGateway(storeURL: server.url(database: database), sandboxAuthority: former, environment: Self.quiet)
        defer { first.process.terminate() }
        let second = try await RunningGateway(
            storeURL: server.url(database: database),
            sandboxAuthority: Self.ownDataDirectory(),
            environment: Self.quiet
        )
        defer { second.process.terminate() }
        let body = ReplicaCluster.cardBody(amount: "13.00")
        let paid = try await ReplicaCluster.send(port: first.port, "/order/former-1/transaction/1", body: body)
        let retry = try await ReplicaCluster.send(port: second.port, "/order/former-1/transaction/1", body: body)
        #expect(retry.status == 201 && retry.body == paid.body, "\(String(decoding: retry.body, as: UTF8.self))")
        // The test authority's tokens, on the replica that never had its files.
        let authorized = try await ReplicaCluster.send(port: second.port, "/order/former-2/transaction/1", body: try ReplicaCluster.tokenBody())
        #expect(authorized.status == 201, "\(String(decoding: authorized.body, as: UTF8.self))")
        let kept = try await server.psql(
            "SELECT encode(secret, 'hex') FROM shared_keys WHERE name = 'store.requestFingerprintKey'",
            database: database
        )
        #expect(kept.trimmingCharacters(in: .whitespacesAndNewlines) == fingerprintKey)
        let names = try await server.psql("SELECT name FROM shared_keys ORDER BY name", database: database)
        #expect(
            names.split(separator: "\n").map(String.init) == ["sandbox.authorityDirectory", "sessions.encryptionKey", "store.requestFingerprintKey"]
        )
    }

    @Test(
        "production replicas with different keys: the second refuses to start, naming the key",
        arguments: [
            ("store.requestFingerprintKey", "GATEWAY_STORE_REQUEST_FINGERPRINT_KEY"),
            ("sessions.encryptionKey", "GATEWAY_SESSIONS_ENCRYPTION_KEY"),
        ]
    )
    func productionReplicaWithAnotherKey(key: String, variable: String) async throws {
        let server = try await PostgresTestServer.shared()
        let database = try await server.createNamedDatabase()
        let settings = Self.production(storeURL: server.url(database: database))
        let first = try await RunningGateway(
            storeURL: settings["GATEWAY_STORE_URL"]!,
            sandboxAuthority: Self.ownDataDirectory(),
            environment: settings
        )
        defer { first.process.terminate() }

        var other = settings
        other[variable] = String(repeating: "9", count: 64)
        let refused = try await Self.serve(settings: other)
        #expect(refused.status == 78, "\(refused.output)")
        #expect(refused.output.contains("configuration key '\(key)' differs from the one the store was first used with"), "\(refused.output)")
        #expect(!refused.output.contains(String(repeating: "9", count: 64)), "the refusal printed the key")
        // Nothing was changed: a replica with the first's keys still starts.
        let same = try await Self.serve(settings: settings)
        #expect(same.status == nil, "\(same.output)")
        let checks = try await server.psql("SELECT count(*) FROM shared_keys WHERE secret IS NOT NULL", database: database)
        #expect(checks.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "production wrote a key into the store")
    }

    @Test("a sandbox replica whose directory holds another authority refuses to start, naming the directory")
    func sandboxReplicaWithAnotherAuthority() async throws {
        let server = try await PostgresTestServer.shared()
        let database = try await server.createNamedDatabase()
        let first = try await RunningGateway(
            storeURL: server.url(database: database),
            sandboxAuthority: Self.ownDataDirectory(),
            environment: Self.quiet
        )
        defer { first.process.terminate() }
        let other = Self.ownDataDirectory()
        try ReplicaCluster.authority.write(to: other)
        var settings = Self.quiet
        settings["GATEWAY_STORE_URL"] = server.url(database: database)
        settings["GATEWAY_SANDBOX_AUTHORITY_DIRECTORY"] = other.path
        let refused = try await Self.serve(settings: settings)
        #expect(refused.status == 78, "\(refused.output)")
        #expect(
            refused.output.contains("configuration key 'sandbox.authorityDirectory' differs from the one the store was first used with"),
            "\(refused.output)"
        )
        #expect(refused.output.contains("was read from \(other.path); remove it to adopt the store's"), "\(refused.output)")
    }

    @Test("a SQLite store started with another request fingerprint key refuses to start, naming it")
    func sqliteStoreWithAnotherKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "shared-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = Self.quiet
        settings["GATEWAY_MODE"] = "production"
        settings["GATEWAY_STORE_URL"] = "sqlite://\(directory.appending(path: "gateway.sqlite").path)"
        settings["GATEWAY_SANDBOX_AUTHORITY_DIRECTORY"] = directory.appending(path: "sandbox-authority").path
        settings["GATEWAY_STORE_REQUEST_FINGERPRINT_KEY"] = String(repeating: "1", count: 64)
        let first = try await Self.serve(settings: settings)
        #expect(first.status == nil, "\(first.output)")
        settings["GATEWAY_STORE_REQUEST_FINGERPRINT_KEY"] = String(repeating: "2", count: 64)
        let refused = try await Self.serve(settings: settings)
        #expect(refused.status == 78, "\(refused.output)")
        #expect(refused.output.contains("'store.requestFingerprintKey' differs from the one the store was first used with"), "\(refused.output)")
    }

    // MARK: - helpers

    static let quiet = ["GATEWAY_LOG_LEVEL": "notice"]

    static let card = Data(
        #"{"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#.utf8
    )

    /// A sandbox authority directory in a folder of its own, where the replica's key files
    /// (beside the authority) are shared with no other.
    static func ownDataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "replica-data-\(UUID().uuidString)/sandbox-authority")
    }

    static func production(storeURL: String) -> [String: String] {
        quiet.merging([
            "GATEWAY_MODE": "production",
            "GATEWAY_STORE_URL": storeURL,
            "GATEWAY_STORE_REQUEST_FINGERPRINT_KEY": String(repeating: "3", count: 64),
            "GATEWAY_SESSIONS_ENCRYPTION_KEY": String(repeating: "4", count: 64),
        ]) { $1 }
    }

    /// `gateway serve` until it exits or says where it listens (then it is stopped), at most 30
    /// seconds: its exit status (nil: it started) and what it wrote.
    static func serve(settings: [String: String]) async throws -> (status: Int32?, output: String) {
        let process = ChildProcess()
        process.executableURL = Gateway.executable
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = ServeCommandTests.packageRoot
        process.environment = settings
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let captured = OutputCapture()
        captured.keepReading(pipe.fileHandleForReading)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, !captured.text.contains("listening on http"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard process.isRunning else {
            process.waitUntilExit()
            await captured.untilEndOfFile()
            return (process.terminationStatus, captured.text)
        }
        process.terminate()
        process.waitUntilExit()
        return (nil, captured.text)
    }

    /// A token from the replica's `/sandbox` endpoint: its authority, TESTMERCHANT's identity.
    static func mintSandboxToken(port: Int, amount: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/sandbox/merchant/TESTMERCHANT/applepay/token")!)
        request.httpMethod = "POST"
        request.setValue(ReplicaCluster.authorization, forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"amount":"\#(amount)","currency":"USD"}"#.utf8)
        let (data, _) = try await ReplicaCluster.session.data(for: request)
        return try #require(ReplicaCluster.json(data)["paymentToken"] as? String, "\(String(decoding: data, as: UTF8.self))")
    }

    static func authorize(token: String, amount: String) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "apiOperation": "AUTHORIZE",
            "order": ["amount": amount, "currency": "USD", "walletProvider": "APPLE_PAY"],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": ["paymentToken": token]]]],
        ])
    }
}
