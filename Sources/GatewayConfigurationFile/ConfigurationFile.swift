import Configuration
import Foundation

/// A `--config` JSON file: its values as a provider, and where each key stands in it.
package struct ConfigurationFile {
    package let path: String
    package let entries: [ConfigurationJSON.Entry]

    package init(path: String) throws(ConfigurationError) {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ConfigurationError(location: path, problem: "is a directory; --config takes a JSON file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(
                location: path,
                problem: FileManager.default.fileExists(atPath: path)
                    ? "cannot be read (check its permissions)"
                    : "does not exist (the path is relative to \(FileManager.default.currentDirectoryPath))"
            )
        }
        let bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw ConfigurationError(
                location: path,
                problem: "starts with a byte order mark (EF BB BF); save it as UTF-8 without one, as JSON asks"
            )
        }
        do {
            entries = try ConfigurationJSON.entries(in: bytes)
        } catch {
            throw ConfigurationError(location: "\(path):\(error.line):\(error.column)", problem: Self.explained(error, in: bytes))
        }
    }

    /// The parser's message, and what people usually meant where it stopped: a comment.
    private static func explained(_ error: ConfigurationJSON.Problem, in bytes: [UInt8]) -> String {
        // Line and column back to a byte offset (the column counts bytes from the line's start).
        var lineStart = 0
        var line = 1
        while line < error.line, let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            lineStart = newline + 1
            line += 1
        }
        let offset = lineStart + error.column - 1
        guard offset >= 0, offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "/"),
            bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*")
        else { return error.message }
        return "JSON has no comments: remove the comment that starts here"
    }

    package var provider: InMemoryProvider {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for entry in entries { values[AbsoluteConfigKey(entry.key)] = ConfigValue(entry.content, isSecret: false) }
        return InMemoryProvider(name: "file \(path)", values: values)
    }

    /// `file:line:column` of a key, for messages.
    package func location(of entry: ConfigurationJSON.Entry) -> String {
        "\(path):\(entry.line):\(entry.column)"
    }
}
