import Configuration

/// Reads a JSON configuration file into dotted keys with typed values, remembering where each key
/// stands, so that a mistake is reported as `file:line:column` rather than a character offset.
///
/// Objects nest (`{"server": {"port": 8080}}` is `server.port`); a key may also be written dotted.
/// Leaves are strings, integers, numbers, booleans and arrays of strings; `null` means "not set".
package struct ConfigurationJSON {
    package struct Entry {
        package var key: [String]
        package var content: ConfigContent
        package var line: Int
        package var column: Int
    }

    /// A syntax or shape problem at a position (1-based line and column).
    package struct Problem: Error {
        package var line: Int
        package var column: Int
        package var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private(set) var entries: [Entry] = []

    package static func entries(in bytes: [UInt8]) throws(Problem) -> [Entry] {
        var reader = ConfigurationJSON(bytes: bytes)
        reader.skipWhitespace()
        guard reader.peek == UInt8(ascii: "{") else { throw reader.problem("the file must hold one JSON object") }
        try reader.object(prefix: [], depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.problem("unexpected text after the closing '}'") }
        return reader.entries
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    private var column: Int { index - lineStart + 1 }

    private func problem(_ message: String) -> Problem {
        Problem(line: line, column: column, message: message)
    }

    private mutating func skipWhitespace() {
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Problem) {
        skipWhitespace()
        guard peek == byte else {
            throw problem(peek == nil ? "the file ends where \(what) was expected" : "expected \(what)")
        }
        index += 1
    }

    private mutating func object(prefix: [String], depth: Int) throws(Problem) {
        guard depth < 16 else { throw problem("objects nest too deeply") }
        try expect(UInt8(ascii: "{"), "'{'")
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return
        }
        var seen: Set<String> = []
        while true {
            skipWhitespace()
            let keyLine = line
            let keyColumn = column
            guard peek == UInt8(ascii: "\"") else { throw problem("expected a key in double quotes") }
            let name = try string()
            guard seen.insert(name).inserted else {
                throw Problem(line: keyLine, column: keyColumn, message: "the key \"\(name)\" appears twice in one object")
            }
            try expect(UInt8(ascii: ":"), "':' after the key \"\(name)\"")
            let key = prefix + name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try value(key: key, line: keyLine, column: keyColumn, depth: depth)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") { throw problem("a trailing ',' before '}' is not JSON") }
            case UInt8(ascii: "}"):
                index += 1
                return
            case nil: throw problem("the file ends inside an object: a '}' is missing")
            default: throw problem("expected ',' or '}' after the value of \"\(name)\"")
            }
        }
    }

    private mutating func value(key: [String], line keyLine: Int, column keyColumn: Int, depth: Int) throws(Problem) {
        skipWhitespace()
        let dotted = key.joined(separator: ".")
        func add(_ content: ConfigContent) {
            entries.append(Entry(key: key, content: content, line: keyLine, column: keyColumn))
        }
        switch peek {
        case UInt8(ascii: "{"): try object(prefix: key, depth: depth + 1)
        case UInt8(ascii: "["): add(.stringArray(try stringArray(dotted)))
        case UInt8(ascii: "\""): add(.string(try string()))
        case UInt8(ascii: "t"):
            try literal("true")
            add(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            add(.bool(false))
        case UInt8(ascii: "n"): try literal("null")
        case nil: throw problem("the file ends where the value of \"\(dotted)\" was expected")
        default: add(try number(dotted))
        }
    }

    private mutating func stringArray(_ key: String) throws(Problem) -> [String] {
        index += 1
        var elements: [String] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw problem("\"\(key)\" is a list: its elements must be strings") }
            elements.append(try string())
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return elements
            case nil: throw problem("the file ends inside a list: a ']' is missing")
            default: throw problem("expected ',' or ']' in the list \"\(key)\"")
            }
        }
    }

    private mutating func literal(_ word: String) throws(Problem) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw problem("expected a value (a string in double quotes, a number, true, false or null)")
        }
        index += expected.count
    }

    private mutating func number(_ key: String) throws(Problem) -> ConfigContent {
        let start = index
        let numberBytes = Set("+-0123456789.eE".utf8)
        while let byte = peek, numberBytes.contains(byte) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let integer = Int(text) { return .int(integer) }
        if !text.isEmpty, text.first != "+", let double = Double(text) { return .double(double) }
        index = start
        throw problem("expected a value for \"\(key)\" (a string in double quotes, a number, true, false or null)")
    }

    private mutating func string() throws(Problem) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                scalars.append(try escape())
            case 0..<0x20:
                index -= 1
                throw problem("a control character (such as a line break) inside a string must be escaped")
            default: utf8.append(byte)
            }
        }
        throw problem("the file ends inside a string: a closing '\"' is missing")
    }

    private mutating func escape() throws(Problem) -> Unicode.Scalar {
        guard let byte = peek else { throw problem("the file ends inside a string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard bytes.count - index >= 4, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                let scalar = Unicode.Scalar(code)
            else { throw problem("\\u must be followed by four hexadecimal digits of a character (no surrogates)") }
            index += 4
            return scalar
        default:
            index -= 1
            throw problem("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
    }
}
