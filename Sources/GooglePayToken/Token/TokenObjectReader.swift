import WireJSON

/// Reads one object of the token envelope strictly: every key must be one Google specifies, each
/// once, with the type it specifies. An unknown key is refused, not ignored: what is not signed
/// must not carry anything, and what is signed is Google's and has no room for extras.
struct TokenObjectReader {
    private var members: [String: JSONValue]
    private let path: String
    private let code: GooglePayTokenError.Code

    init(_ value: JSONValue, path: String, code: GooglePayTokenError.Code = .malformedToken) throws(GooglePayTokenError) {
        self.path = path
        self.code = code
        guard case .object(let members) = value else {
            throw GooglePayTokenError(code, "\(path.isEmpty ? "the token" : path) must be a JSON object", field: path.isEmpty ? nil : path)
        }
        self.members = members
    }

    /// Parses `bytes` as JSON and reads its top-level object.
    static func parse<Bytes: Collection<UInt8>>(
        _ bytes: Bytes,
        path: String,
        code: GooglePayTokenError.Code = .malformedToken
    ) throws(GooglePayTokenError) -> TokenObjectReader {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            let what = path.isEmpty ? "the token" : path
            if let key = error.duplicateKey {
                throw GooglePayTokenError(code, "\(what) repeats the key \"\(key.prefix(40))\"", field: path.isEmpty ? nil : path)
            }
            throw GooglePayTokenError(code, "\(what) is not JSON", field: path.isEmpty ? nil : path)
        }
        return try TokenObjectReader(value, path: path, code: code)
    }

    mutating func string(_ key: String) throws(GooglePayTokenError) -> String {
        guard let value = try optionalString(key) else { throw failure(key, "is missing") }
        return value
    }

    mutating func optionalString(_ key: String) throws(GooglePayTokenError) -> String? {
        switch members.removeValue(forKey: key) {
        case nil: return nil
        case .string(let text): return text
        default: throw failure(key, "must be a string")
        }
    }

    mutating func base64(_ key: String) throws(GooglePayTokenError) -> [UInt8] {
        let text = try string(key)
        guard let bytes = StrictBase64.decode(text) else { throw failure(key, "must be base64 (standard alphabet, canonical)") }
        return bytes
    }

    mutating func value(_ key: String) throws(GooglePayTokenError) -> JSONValue {
        guard let value = members.removeValue(forKey: key) else { throw failure(key, "is missing") }
        return value
    }

    mutating func array(_ key: String) throws(GooglePayTokenError) -> [JSONValue] {
        guard case .array(let elements) = try value(key) else { throw failure(key, "must be an array") }
        return elements
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func failure(_ key: String, _ problem: String) -> GooglePayTokenError {
        GooglePayTokenError(code, "\(fieldPath(key)) \(problem)", field: fieldPath(key))
    }

    /// Refuses whatever key was not read.
    func finish() throws(GooglePayTokenError) {
        guard let unknown = members.keys.min() else { return }
        throw GooglePayTokenError(
            code,
            "\(fieldPath(String(unknown.prefix(40)))) is not a field Google specifies here",
            field: fieldPath(String(unknown.prefix(40)))
        )
    }
}
