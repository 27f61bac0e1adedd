import Configuration
import Foundation

/// A `--config` JSON file: its values as a provider, and where each key stands in it.
struct ConfigurationFile {
    let path: String
    let entries: [ConfigurationJSON.Entry]

    init(path: String) throws(ConfigurationError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(
                location: path,
                problem: FileManager.default.fileExists(atPath: path)
                    ? "cannot be read (check its permissions)"
                    : "does not exist (the path is relative to \(FileManager.default.currentDirectoryPath))"
            )
        }
        do {
            entries = try ConfigurationJSON.entries(in: Array(data))
        } catch {
            throw ConfigurationError(location: "\(path):\(error.line):\(error.column)", problem: error.message)
        }
    }

    var provider: InMemoryProvider {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for entry in entries { values[AbsoluteConfigKey(entry.key)] = ConfigValue(entry.content, isSecret: false) }
        return InMemoryProvider(name: "file \(path)", values: values)
    }

    /// `file:line:column` of a key, for messages.
    func location(of entry: ConfigurationJSON.Entry) -> String {
        "\(path):\(entry.line):\(entry.column)"
    }
}
