import Configuration
import GatewayConfigurationFile

/// Typed reads over the configuration sources, highest priority first, that tell a missing key from
/// one of the wrong type by the providers' answers rather than by their error text: a provider
/// that has no value returns none; one that has a value it cannot give as the asked type throws.
///
/// It remembers every key it was asked for: the file's other keys are mistakes (``UnknownKeys``).
final class ConfigValues {
    /// A provider and how to name where it found a key (a file, a variable), for errors.
    struct Source {
        let provider: any ConfigProvider
        let origin: (String) -> String

        init(_ provider: any ConfigProvider, origin: @escaping (String) -> String) {
            self.provider = provider
            self.origin = origin
        }
    }

    private let sources: [Source]
    private(set) var readKeys: Set<String> = []

    init(sources: [Source]) {
        self.sources = sources
    }

    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard case .string(let value)? = try content(key, .string, "a string") else { return nil }
        return value
    }

    func int(_ key: String) throws(ConfigurationError) -> Int? {
        guard case .int(let value)? = try content(key, .int, "an integer") else { return nil }
        return value
    }

    func stringArray(_ key: String) throws(ConfigurationError) -> [String]? {
        guard case .stringArray(let value)? = try content(key, .stringArray, "a list of strings") else { return nil }
        return value
    }

    private func content(_ key: String, _ type: ConfigType, _ typeName: String) throws(ConfigurationError) -> ConfigContent? {
        readKeys.insert(key)
        let absoluteKey = AbsoluteConfigKey(ConfigKey(key))
        for source in sources {
            let result: LookupResult
            do {
                result = try source.provider.value(forKey: absoluteKey, type: type)
            } catch {
                throw ConfigurationError(key: key, problem: "must be \(typeName) (in \(source.origin(key)))")
            }
            if let value = result.value { return value.content }
        }
        return nil
    }
}
