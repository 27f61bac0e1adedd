import Foundation
import GatewayCore
import HummingbirdTesting
import PostgresTestServer
import StoreTestSupport
import Testing

@testable import Gateway
@testable import MPGSAPI

/// A token's card is sealed at rest and never logged: the store holds the token, its merchant,
/// status and times in clear, and the card only sealed under the session key.
@Suite("Tokenization: secrecy")
struct TokenSecrecyTests {
    static let pan = "4012000033330026"

    /// Makes a token of ``pan``, pays with it, and updates it; the token.
    static func useToken(_ client: some TestClientProtocol) async throws -> String {
        let token = try await client.newToken(TokenRequests.card(number: pan, securityCode: "100"))
        let paid = try await client.put(TestGateway.path(order: "secret-token", transaction: "1"), TokenRequests.payment(token))
        #expect(paid.string("result") == "SUCCESS")
        let updated = try await client.put(TokenRequests.tokenPath(token), TokenRequests.card(number: pan, month: "2"))
        #expect(updated.status == .ok)
        _ = try await client.send(TokenRequests.tokenPath(token), method: .get)
        return token
    }

    @Test("the SQLite file holds the token but not its card number; the log holds neither")
    func sqliteAndLogs() async throws {
        let gateway = try await TestGateway(store: .sqlite)
        let logs = LogCollector()
        let token = try await gateway.application(logger: logs.logger).test(.live) { client in
            try await Self.useToken(client)
        }
        let path = try gateway.services.configuration.sqlitePath
        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { bytes.append(data) }
        }
        #expect(bytes.range(of: Data(token.utf8)) != nil, "the token is in the file")
        #expect(bytes.range(of: Data(Self.pan.utf8)) == nil)
        let logged = logs.all.joined(separator: "\n")
        #expect(logged.contains("token created") && logged.contains("token updated"))
        #expect(!logged.contains(Self.pan))
        #expect(!logged.contains(token), "a token is a long number: masked in the log like one")
    }

    @Test("a PostgreSQL dump holds the token but not its card number")
    func postgresDump() async throws {
        let gateway = try await TestGateway(store: .postgres)
        let token = try await gateway.application.test(.live) { client in try await Self.useToken(client) }
        guard case .postgres(let location) = try gateway.services.configuration.storeLocation else {
            throw SessionTestFailure(description: "not a PostgreSQL store")
        }
        let dump = try await PostgresTestServer.shared().dump(database: location.database)
        #expect(dump.contains("COPY public.tokens"))
        #expect(dump.contains(token))
        #expect(!dump.contains(Self.pan))
    }

    @Test("production without sessions.encryptionKey has no tokens, says which key to configure, and offers no tokenization")
    func productionWithoutKey() async throws {
        let production = try await TestGateway(mode: .production)
        try await production.application.test(.router) { client in
            let created = try await client.send(TokenRequests.tokensPath(), method: .post, body: TokenRequests.card())
            #expect(created.status == .notFound)
            #expect(created.string("error.explanation")?.contains("sessions.encryptionKey") == true)
            let paid = try await client.put(TestGateway.path(order: "no-key", transaction: "1"), TokenRequests.payment("9102030405060708"))
            #expect(paid.status == .notFound)
            #expect(paid.string("error.explanation")?.contains("sessions.encryptionKey") == true)
            let options = try await client.send("/api/rest/version/100/merchant/\(TestGateway.merchantId)/paymentOptionsInquiry", method: .get)
            #expect(options.status == .ok)
            #expect(options.string("paymentTypes.card.tokenization") == "NOT_SUPPORTED")
        }
    }
}
