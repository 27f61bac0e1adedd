import GatewayConfigurationFile

/// Finds the keys of a configuration file that nothing reads: a misspelled key would otherwise be
/// ignored silently and its default used. The keys read are the catalogue (``ConfigValues``), so
/// a new key needs no second list here.
enum UnknownKeys {
    /// The first key of `file` that was not read, as an error naming it and its nearest read key.
    static func firstUnknown(in file: ConfigurationFile, read: Set<String>, merchants: [String]) -> ConfigurationError? {
        for entry in file.entries {
            let key = entry.key.joined(separator: ".")
            guard !read.contains(key) else { continue }
            return ConfigurationError(location: file.location(of: entry), key: key, problem: explanation(key, read: read, merchants: merchants))
        }
        return nil
    }

    private static func explanation(_ key: String, read: Set<String>, merchants: [String]) -> String {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 2, parts[0] == "merchant", !merchants.contains(parts[1]) {
            return "is not a configuration key: merchant \(parts[1]) is not listed in merchants (\(merchants.joined(separator: ", ")))"
        }
        if let suggestion = nearest(key, among: read) { return "is not a configuration key; did you mean '\(suggestion)'?" }
        if parts.count > 4, parts[0] == "merchant", parts[2] == "applePay" {
            return "is not a configuration key: identity \(parts[3]) is not listed in merchant.\(parts[1]).applePay.identities"
        }
        return "is not a configuration key (Deploy/docs/configuration.md lists them all)"
    }

    /// The read key closest to `key` by edit distance, when close enough to be a slip of the keyboard.
    static func nearest(_ key: String, among candidates: Set<String>) -> String? {
        let limit = max(2, key.count / 6)
        let scored = candidates.map { ($0, distance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }), best.1 <= limit else { return nil }
        return best.0
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
