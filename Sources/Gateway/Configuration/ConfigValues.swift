import Configuration

/// Typed reads over the configuration sources, highest priority first, that tell a missing key from
/// one of the wrong type by the providers' answers rather than by their error text: a provider
/// that has no value returns none; one that has a value it cannot give as the asked type throws.
///
/// It remembers every key it was asked for: the file's other keys are mistakes (``UnknownKeys``).
final class ConfigValues {
    private let providers: [any ConfigProvider]
    private(set) var readKeys: Set<String> = []

    init(providers: [any ConfigProvider]) {
        self.providers = providers
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
        for provider in providers {
            let result: LookupResult
            do {
                result = try provider.value(forKey: absoluteKey, type: type)
            } catch {
                throw ConfigurationError(key: key, problem: "must be \(typeName) (in \(provider.providerName))")
            }
            if let value = result.value { return value.content }
        }
        return nil
    }
}
