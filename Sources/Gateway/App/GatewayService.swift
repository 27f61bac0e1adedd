import Configuration
import Foundation
import Hummingbird
import Logging

/// The entry points the `gateway` command calls.
public enum GatewayService {
    /// Command-line settings that override every other source.
    public struct Overrides: Sendable {
        public var configFile: String?
        public var host: String?
        public var port: Int?
        public init(configFile: String? = nil, host: String? = nil, port: Int? = nil) {
            self.configFile = configFile
            self.host = host
            self.port = port
        }
    }

    /// Runs the server until SIGINT/SIGTERM.
    public static func serve(_ overrides: Overrides) async throws {
        let configuration = try await loadConfiguration(overrides)
        var logger = Logger(label: "gateway")
        logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
        let services = try GatewayServices(configuration: configuration)
        try await services.store.prepare()
        try await buildApplication(services, logger: logger).runService()
    }

    /// Validates the configuration and its key material without serving; returns a summary.
    public static func checkConfiguration(
        _ overrides: Overrides,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> String {
        let configuration = try await loadConfiguration(overrides, environment: environment)
        let services = try GatewayServices(configuration: configuration, store: NoStore())
        let identities = services.merchants.values.map { $0.keyRing.identities.count }.reduce(0, +)
        return "configuration is valid: \(configuration.mode.rawValue) mode, \(services.merchants.count) merchant(s), "
            + "\(identities) Apple Pay identit\(identities == 1 ? "y" : "ies"), store \(StoreLocation.redacted(configuration.storeURL))"
    }

    static func loadConfiguration(
        _ overrides: Overrides,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> GatewayConfiguration {
        var providers: [any ConfigProvider] = []
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        if let host = overrides.host { values["server.host"] = .init(.string(host), isSecret: false) }
        if let port = overrides.port { values["server.port"] = .init(.int(port), isSecret: false) }
        providers.append(InMemoryProvider(name: "command line", values: values))
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
        providers.append(KeyMappingProvider(upstream: environmentProvider) { $0.prepending(["gateway"]) })
        if let file = overrides.configFile {
            providers.append(try await FileProvider<JSONSnapshot>(filePath: .init(file)))
        } else {
            providers.append(SandboxDefaults.provider)
        }
        return try GatewayConfiguration(reader: ConfigReader(providers: providers))
    }
}

/// For checking configuration: no database is opened.
private struct NoStore: TransactionStore {
    func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction? { nil }
    func order(merchantId: String, orderId: String) async throws -> StoredOrder? { nil }
    func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary] { [] }
    func isApplePayTransactionUsed(_ applePayTransactionId: String) async throws -> Bool { false }
    func record(_ record: TransactionRecord) async throws -> RecordOutcome { .recorded }
}
