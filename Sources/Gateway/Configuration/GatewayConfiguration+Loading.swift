import Configuration
import Foundation
import GatewayConfigurationFile

extension GatewayConfiguration {
    /// The configuration from (highest priority first) the command line, `GATEWAY_*` environment
    /// variables, and the `file` or, without one, the embedded sandbox defaults. A file key that
    /// nothing reads is an error naming it, so a misspelling never falls back to a default silently.
    static func load(
        file: String?,
        host: String? = nil,
        port: Int? = nil,
        environment: [String: String]
    ) throws(ConfigurationError) -> GatewayConfiguration {
        var commandLine: [AbsoluteConfigKey: ConfigValue] = [:]
        if let host { commandLine["server.host"] = .init(.string(host), isSecret: false) }
        if let port { commandLine["server.port"] = .init(.int(port), isSecret: false) }
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: environment)
        let configurationFile = try file.map { path throws(ConfigurationError) in try ConfigurationFile(path: path) }
        // Each source as people name it, for errors about a value it holds.
        let values = ConfigValues(sources: [
            .init(InMemoryProvider(name: "command line", values: commandLine)) { _ in "the command line" },
            .init(KeyMappingProvider(upstream: environmentProvider) { $0.prepending(["gateway"]) }) {
                "environment variable \(EnvironmentNames.variable(for: $0))"
            },
            configurationFile.map { file in .init(file.provider) { _ in file.path } }
                ?? .init(SandboxDefaults.provider) { _ in "the embedded sandbox defaults" },
        ])
        let configuration: GatewayConfiguration
        do {
            configuration = try GatewayConfiguration(values: values)
        } catch {
            // A misspelled required key shows up as that key missing: name the misspelling instead.
            if let configurationFile, let slip = slip(in: configurationFile, for: error.key, read: values.readKeys) { throw slip }
            throw error
        }
        if let configurationFile,
            let unknown = UnknownKeys.firstUnknown(in: configurationFile, read: values.readKeys, merchants: configuration.merchants.map(\.id))
        {
            throw unknown
        }
        let merchants = configuration.merchants.map(\.id)
        if let unknown = EnvironmentNames.firstUnknown(in: environment, read: values.readKeys, merchants: merchants) { throw unknown }
        if configurationFile == nil { try SandboxDefaults.checkKeyFiles(configuration) }
        return configuration
    }

    private static func slip(in file: ConfigurationFile, for failedKey: String, read: Set<String>) -> ConfigurationError? {
        guard !failedKey.isEmpty else { return nil }
        for entry in file.entries {
            let key = entry.key.joined(separator: ".")
            if !read.contains(key), UnknownKeys.nearest(key, among: [failedKey]) != nil {
                return ConfigurationError(
                    location: file.location(of: entry),
                    key: key,
                    problem: "is not a configuration key; did you mean '\(failedKey)'?"
                )
            }
        }
        return nil
    }
}
