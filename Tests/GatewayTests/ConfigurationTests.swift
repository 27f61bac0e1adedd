import Foundation
import GatewayConfigurationFile
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("Configuration")
struct ConfigurationTests {
    func load(
        file: String? = nil,
        environment: [String: String] = [:],
        port: Int? = nil
    ) async throws
        -> GatewayConfiguration
    {
        var path: String?
        if let file {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json").path
            try file.write(toFile: path!, atomically: true, encoding: .utf8)
        }
        return try await GatewayService.loadConfiguration(
            .init(configFile: path, port: port),
            environment: environment
        )
    }

    @Test("the embedded defaults: sandbox, TESTMERCHANT with two Apple Pay identities, port 8080")
    func defaults() async throws {
        let configuration = try await load()
        #expect(configuration.mode == .sandbox)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.merchants.map(\.id) == ["TESTMERCHANT"])
        #expect(configuration.merchants[0].apiPasswords == ["00112233445566778899aabbccddeeff"])
        #expect(configuration.merchants[0].identities.map(\.name) == ["ec", "rsa"])
        #expect(try configuration.sqlitePath == "data/gateway.sqlite")
        #expect(configuration.logFormat == .json)
        #expect(configuration.limits.maxBodyBytes == 65536)
        #expect(configuration.limits.maxConnections == 1024)
    }

    @Test("log format and server limits come from the environment")
    func limitsFromEnvironment() async throws {
        let configuration = try await load(environment: [
            "GATEWAY_LOG_FORMAT": "text", "GATEWAY_SERVER_MAX_BODY_BYTES": "2048",
            "GATEWAY_SERVER_HEADER_TIMEOUT_SECONDS": "3", "GATEWAY_SERVER_IDLE_TIMEOUT_SECONDS": "7",
            "GATEWAY_SERVER_MAX_CONNECTIONS": "5", "GATEWAY_SERVER_SHUTDOWN_GRACE_PERIOD_SECONDS": "9",
        ])
        #expect(configuration.logFormat == .text)
        #expect(configuration.limits.maxBodyBytes == 2048)
        #expect(configuration.limits.headerTimeoutSeconds == 3)
        #expect(configuration.limits.idleTimeoutSeconds == 7)
        #expect(configuration.limits.maxConnections == 5)
        #expect(configuration.limits.shutdownGracePeriodSeconds == 9)
    }

    @Test("environment variables and flags override the file")
    func precedence() async throws {
        let file = """
            {"server": {"port": 9000}, "store": {"url": "sqlite:///tmp/from-file.sqlite"}, "merchants": ["SHOP1"],
             "merchant": {"SHOP1": {"apiPasswords": ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"]}}}
            """
        let fromFile = try await load(file: file)
        #expect(fromFile.port == 9000)
        #expect(fromFile.merchants.first?.apiPasswords.count == 2)
        let fromEnvironment = try await load(
            file: file,
            environment: ["GATEWAY_STORE_URL": "sqlite:///tmp/from-env.sqlite", "GATEWAY_SERVER_PORT": "9100"]
        )
        #expect(try fromEnvironment.sqlitePath == "/tmp/from-env.sqlite")
        #expect(fromEnvironment.port == 9100)
        let fromFlag = try await load(file: file, environment: ["GATEWAY_SERVER_PORT": "9100"], port: 9200)
        #expect(fromFlag.port == 9200)
    }

    @Test(
        "invalid configuration stops start-up naming the key",
        arguments: [
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "server": {"port": "eighty"}}"#,
                "server.port"
            ),
            (#"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["short"]}}}"#, "merchant.A.apiPasswords"),
            (#"{"merchants": []}"#, "merchants"),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "store": {"url": "mysql://x"}}"#,
                "store.url"
            ),
            (#"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "mode": "live"}"#, "mode"),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "applePay": {"identities": ["k"]}}}}"#,
                "merchant.A.applePay.k.privateKey"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "simulator": {"amountMatching": "sometimes"}}}}"#,
                "merchant.A.simulator.amountMatching"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "simulator": {"testCards": "older"}}}}"#,
                "merchant.A.simulator.testCards"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "tokens": {"format": "luhn"}}}}"#,
                "merchant.A.tokens.format"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "tokens": {"verificationStrategy": "ACQUIRER"}}}}"#,
                "merchant.A.tokens.verificationStrategy"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "tokens": {"repositoryId": "repo 1"}}}}"#,
                "merchant.A.tokens.repositoryId"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "log": {"format": "xml"}}"#,
                "log.format"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "server": {"maxBodyBytes": 10}}"#,
                "server.maxBodyBytes"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "server": {"headerTimeoutSeconds": 0}}"#,
                "server.headerTimeoutSeconds"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "server": {"idleTimeoutSeconds": -1}}"#,
                "server.idleTimeoutSeconds"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "server": {"maxConnections": 0}}"#,
                "server.maxConnections"
            ),
            (
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}, "server": {"shutdownGracePeriodSeconds": 1000}}"#,
                "server.shutdownGracePeriodSeconds"
            ),
        ]
    )
    func invalid(file: String, key: String) async throws {
        await #expect {
            try await load(file: file)
        } throws: { error in
            (error as? ConfigurationError)?.key == key
        }
    }

    @Test("key material that does not load is reported by key")
    func unreadableKey() async throws {
        let file = """
            {"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"],
             "applePay": {"identities": ["main"], "main": {"privateKey": "/nonexistent/key.pem", "merchantIdentifier": "merchant.a"}}}}}
            """
        let configuration = try await load(file: file)
        #expect {
            try GatewayDependencies(configuration: configuration)
        } throws: { error in
            (error as? ConfigurationError)?.key == "merchant.A.applePay.main.privateKey"
        }
    }
}
