import Foundation
import GatewayConfigurationFile
import GatewayCore
import HummingbirdTesting
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// Where sessions live: encrypted in either store, shared by replicas on PostgreSQL.
@Suite("Sessions: storage")
struct SessionStorageTests {
    static let pan = "5123450000000008"

    /// A session holding a typed card and one holding a token, both still unpaid.
    @discardableResult
    static func fillSessions(_ client: some TestClientProtocol, token: String) async throws -> [String] {
        let cardSession = try await client.newSessionId()
        let card = try await client.put(SessionRequests.sessionPath(cardSession), SessionRequests.cardUpdate(number: pan))
        #expect(card.status == .ok)
        let tokenSession = try await client.newSessionId()
        let device = try await client.put(
            SessionRequests.sessionPath(tokenSession),
            SessionRequests.tokenUpdate(token),
            authorization: SessionRequests.sessionCredential(tokenSession)
        )
        #expect(device.status == .ok)
        // Still found by the id the client holds, though the store keeps only its hash.
        #expect(try await client.send(SessionRequests.sessionPath(cardSession), method: .get).status == .ok)
        return [cardSession, tokenSession]
    }

    /// The token's `data`: the ciphertext Apple's device made, which must not sit in clear.
    static func tokenData(_ token: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        return try #require(object["data"] as? String)
    }

    @Test("the SQLite file holds neither the card number nor the token's data in clear")
    func sqliteFileHasNoCardData() async throws {
        let gateway = try await TestGateway(store: .sqlite)
        let token = try TestGateway.mintToken(amountMinorUnits: 100)
        let ids = try await gateway.application.test(.router) { client in
            try await Self.fillSessions(client, token: token)
        }
        let path = try gateway.services.configuration.sqlitePath
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { bytes.append(data) }
        }
        #expect(bytes.count > 4096)
        #expect(bytes.range(of: Data("sessions".utf8)) != nil, "the sessions table is in the file")
        #expect(bytes.range(of: Data(Self.pan.utf8)) == nil)
        let data = try Self.tokenData(token)
        #expect(bytes.range(of: Data(data.prefix(48).utf8)) == nil)
        #expect(bytes.range(of: Data("paymentToken".utf8)) == nil)
        // Session ids are credentials: the store holds their hashes only.
        for id in ids {
            #expect(bytes.range(of: Data(id.utf8)) == nil)
            #expect(bytes.range(of: Data(SessionStorageKey.of(id).utf8)) != nil)
        }
    }

    @Test("a PostgreSQL dump holds neither the card number nor the token's data in clear")
    func postgresDumpHasNoCardData() async throws {
        let gateway = try await TestGateway(store: .postgres)
        let token = try TestGateway.mintToken(amountMinorUnits: 100)
        let ids = try await gateway.application.test(.router) { client in
            try await Self.fillSessions(client, token: token)
        }
        guard case .postgres(let location) = try gateway.services.configuration.storeLocation else {
            throw SessionTestFailure(description: "not a PostgreSQL store")
        }
        let dump = try await PostgresTestServer.shared().dump(database: location.database)
        #expect(dump.contains("COPY public.sessions"))
        let rows = try await PostgresTestServer.shared().psql("SELECT count(*) FROM sessions", database: location.database)
        #expect(rows == "2")
        #expect(!dump.contains(Self.pan))
        #expect(!dump.contains(String(try Self.tokenData(token).prefix(48))))
        #expect(!dump.contains("paymentToken"))
        for id in ids {
            #expect(!dump.contains(id))
            #expect(dump.contains(SessionStorageKey.of(id)))
        }
    }

    @Test("two replicas on PostgreSQL share sessions: created on one, updated and paid on the other")
    func replicasShareSessions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replicas-\(UUID().uuidString)")
        let url = try await StoreKind.postgres.newStoreURL()
        let first = try await TestGateway(directory: directory, storeURL: url)
        let second = try await TestGateway(directory: directory, storeURL: url)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        // Both replicas serve at once (each runs its PostgreSQL pool for as long as it serves).
        try await first.application.test(.live) { firstClient in
            let id = try await firstClient.newSessionId()
            try await second.application.test(.live) { secondClient in
                let updated = try await secondClient.put(
                    SessionRequests.sessionPath(id),
                    SessionRequests.tokenUpdate(token),
                    authorization: SessionRequests.sessionCredential(id)
                )
                #expect(updated.status == .ok, "\(updated.body)")
                let retrieved = try await firstClient.send(SessionRequests.sessionPath(id), method: .get)
                #expect(retrieved.string("session.updateStatus") == "SUCCESS")
                let paid = try await firstClient.put(
                    TestGateway.path(order: "replicas", transaction: "1"),
                    SessionRequests.payment(id)
                )
                #expect(paid.string("result") == "SUCCESS", "\(paid.body)")
                let used = try await secondClient.send(SessionRequests.sessionPath(id), method: .get)
                #expect(used.status == .notFound)
            }
        }
    }

    @Test("a restarted sandbox gateway opens its sessions with the key it generated")
    func sandboxKeyIsKept() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restart-\(UUID().uuidString)")
        let first = try await TestGateway(directory: directory)
        let id = try await first.application.test(.router) { client in
            let id = try await client.newSessionId()
            _ = try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate())
            return id
        }
        let keyFile = directory.appendingPathComponent("session-encryption.key")
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let restarted = try await TestGateway(directory: directory, storeURL: first.services.configuration.storeURL)
        try await restarted.application.test(.router) { client in
            let retrieved = try await client.send(SessionRequests.sessionPath(id), method: .get)
            #expect(retrieved.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
        }
    }

    @Test("sealed content opens only under its own session id and key")
    func cipherBindsTheSession() throws {
        let cipher = SessionCipher(key: Array(repeating: 7, count: 32))
        let sealed = try cipher.seal(Array(Self.pan.utf8), sessionId: "SESSIONA")
        #expect(try cipher.open(sealed, sessionId: "SESSIONA") == Array(Self.pan.utf8))
        #expect(throws: (any Error).self) { try cipher.open(sealed, sessionId: "SESSIONB") }
        #expect(throws: (any Error).self) {
            try SessionCipher(key: Array(repeating: 8, count: 32)).open(sealed, sessionId: "SESSIONA")
        }
    }

    @Test("session ids: 35 characters shaped like the gateway's, never repeated")
    func sessionIds() {
        let ids = (0..<2000).map { _ in SessionIdentifiers.newSessionId() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 35 && SessionIdentifiers.isWellFormed($0) })
        #expect(SessionIdentifiers.isWellFormed("SESSION0002676222061H85330310J8"))
        #expect(!SessionIdentifiers.isWellFormed("SESSION0002676222061h85330310j8"))
        #expect(!SessionIdentifiers.isWellFormed("00112233445566778899aabbccddeeff"))
        // Every character position varies: the 28 after SESSION are random.
        for position in 7..<35 {
            let characters = Set(ids.map { Array($0)[position] })
            #expect(characters.count > 20)
        }
    }

    @Test("configuration: lifetime range, key format, and production without a key has no sessions")
    func configuration() async throws {
        #expect(throws: ConfigurationError.self) { try SessionSettings(lifetimeSeconds: 10, encryptionKey: nil) }
        #expect(throws: ConfigurationError.self) { try SessionSettings(lifetimeSeconds: nil, encryptionKey: "abc") }
        let settings = try SessionSettings(lifetimeSeconds: 900, encryptionKey: String(repeating: "ab", count: 32))
        #expect(settings.lifetime == 900)
        #expect(settings.encryptionKey == Array(repeating: 0xab, count: 32))
        let production = try await TestGateway(mode: .production)
        try await production.application.test(.router) { client in
            let created = try await client.createSession()
            #expect(created.status == .notFound)
            #expect(created.string("error.explanation")?.contains("sessions.encryptionKey") == true)
        }
    }
}
