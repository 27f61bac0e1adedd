import Foundation
import GatewayConfigurationFile
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

@Suite("Store configuration")
struct StoreConfigurationTests {
    @Test("a postgres:// URL from the environment selects PostgreSQL, with pool settings")
    func postgresFromEnvironment() async throws {
        let configuration = try await GatewayService.loadConfiguration(
            .init(),
            environment: [
                "GATEWAY_STORE_URL": "postgres://gw:s%40cret@db.internal:6543/payments",
                "GATEWAY_STORE_MAX_CONNECTIONS": "25", "GATEWAY_STORE_TIMEOUT_SECONDS": "3",
            ]
        )
        guard case .postgres(let location) = try configuration.storeLocation else {
            Issue.record("not PostgreSQL: \(configuration.storeURL)")
            return
        }
        #expect(location.host == "db.internal")
        #expect(location.port == 6543)
        #expect(location.username == "gw")
        #expect(location.password == "s@cret")
        #expect(location.database == "payments")
        #expect(!location.requiresTLS)
        #expect(configuration.storeMaxConnections == 25)
        #expect(configuration.storeTimeout == .seconds(3))
        #expect(try StoreLocation(url: "postgresql://gw@db/payments?sslmode=require") != configuration.storeLocation)
        #expect(!location.transactionPooling)
        guard case .postgres(let pooled) = try StoreLocation(url: "postgres://gw@bouncer:6432/payments?sslmode=require&pool_mode=transaction")
        else { return }
        #expect(pooled.transactionPooling && pooled.requiresTLS)
    }

    @Test(
        "bad store settings name their key",
        arguments: [
            ("postgres://db.internal/payments", "store.url"),  // no user
            ("postgres://gw@db.internal", "store.url"),  // no database
            ("postgres://gw@db.internal/payments?sslmode=sometimes", "store.url"),
            ("postgres://gw@db.internal/payments?pool_mode=statement", "store.url"),
            ("redis://gw@db.internal/0", "store.url"),
        ]
    )
    func invalidURL(url: String, key: String) async throws {
        await #expect {
            try await GatewayService.loadConfiguration(.init(), environment: ["GATEWAY_STORE_URL": url])
        } throws: { ($0 as? ConfigurationError)?.key == key }
        await #expect {
            try await GatewayService.loadConfiguration(.init(), environment: ["GATEWAY_STORE_MAX_CONNECTIONS": "0"])
        } throws: { ($0 as? ConfigurationError)?.key == "store.maxConnections" }
        await #expect {
            try await GatewayService.loadConfiguration(.init(), environment: ["GATEWAY_STORE_TIMEOUT_SECONDS": "-1"])
        } throws: { ($0 as? ConfigurationError)?.key == "store.timeoutSeconds" }
    }

    @Test("the database password never appears in check-config's summary or in errors")
    func passwordIsRedacted() async throws {
        let summary = try await GatewayService.checkConfiguration(
            .init(),
            environment: ["GATEWAY_STORE_URL": "postgres://gw:topsecret@127.0.0.1:1/payments"]
        )
        #expect(summary.contains("postgres://gw:redacted@127.0.0.1:1/payments"))
        #expect(!summary.contains("topsecret"))
        await #expect {
            try await GatewayService.loadConfiguration(
                .init(),
                environment: ["GATEWAY_STORE_URL": "postgres://gw:topsecret@127.0.0.1:1/"]
            )
        } throws: { "\($0)".contains("store.url") && !"\($0)".contains("topsecret") }
    }
}
