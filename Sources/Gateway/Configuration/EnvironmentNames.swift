import Configuration
import GatewayConfigurationFile

/// `GATEWAY_*` environment variables as configuration: the name each key is read under, and the
/// variables that name no key (a typo, or a merchant that is not configured), which would
/// otherwise be ignored silently while the setting they meant keeps its default.
enum EnvironmentNames {
    static let prefix = "GATEWAY_"
    /// Read by the integration guide's examples (the client's base URL), never by the gateway.
    static let clientVariables: Set<String> = ["GATEWAY_URL"]

    /// The variable a dotted key is read from, as swift-configuration spells it: camelCase split
    /// at its word boundaries, upper case, anything but letters and digits as `_`.
    static func variable(for key: String) -> String {
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map { component in
            var spelled = ""
            var previous: Character?
            for character in component {
                if let previous, previous.isLowercase, character.isUppercase { spelled.append("_") }
                spelled.append(character)
                previous = character
            }
            return String(spelled.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }
        return prefix + components.joined(separator: "_")
    }

    /// The first `GATEWAY_*` variable that no key read, as an error naming it.
    static func firstUnknown(in environment: [String: String], read: Set<String>, merchants: [String]) -> ConfigurationError? {
        let known = Dictionary(read.map { (variable(for: $0), $0) }) { first, _ in first }
        for name in environment.keys.sorted() where name.hasPrefix(prefix) && known[name] == nil && !clientVariables.contains(name) {
            return ConfigurationError(location: "environment variable \(name)", problem: explanation(name, known: known, merchants: merchants))
        }
        return nil
    }

    private static func explanation(_ name: String, known: [String: String], merchants: [String]) -> String {
        let merchantPrefix = prefix + "MERCHANT_"
        if name.hasPrefix(merchantPrefix) {
            // The per-merchant settings read for the configured merchants, e.g. `_API_PASSWORDS`.
            let configured = Set(merchants.map { variable(for: "merchant.\($0)") + "_" })
            let suffixes = Set(
                known.keys.compactMap { variable in
                    configured.first(where: variable.hasPrefix).map { String(variable.dropFirst($0.count)) }
                }
            )
            for suffix in suffixes.sorted(by: { $0.count > $1.count }) where name.hasSuffix("_" + suffix) {
                let named = name.dropFirst(merchantPrefix.count).dropLast(suffix.count + 1)
                guard !named.isEmpty, !configured.contains(merchantPrefix + named + "_") else { continue }
                let candidates = merchants.map { variable(for: "merchant.\($0)") + "_" + suffix }
                let meant = UnknownKeys.nearest(name, among: Set(candidates)) ?? (candidates.count == 1 ? candidates.first : nil)
                return "names merchant \(named), which is not in merchants (\(merchants.joined(separator: ", ")))"
                    + (meant.map { "; did you mean \($0)?" } ?? "")
            }
        }
        if let meant = UnknownKeys.nearest(name, among: Set(known.keys)) {
            return "is not a configuration variable; did you mean \(meant)?"
        }
        return "is not a configuration variable (Deploy/docs/configuration.md lists them; each key K is read as GATEWAY_K)"
    }
}
