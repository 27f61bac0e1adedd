import ApplePayToken

/// Reads a request body against a ``FieldShape``: checks every name and type first, then hands
/// out values by dotted path. `null` counts as absent.
struct RequestReader {
    let root: JSONValue

    init(body: [UInt8], shape: FieldShape) throws(GatewayError) {
        guard !body.isEmpty else { throw GatewayError.malformedJSON("the request has no body") }
        do {
            root = try JSONValue(parsing: body)
        } catch {
            throw GatewayError.malformedJSON("the body is not valid JSON")
        }
        guard case .object = root else { throw GatewayError.malformedJSON("the body is not a JSON object") }
        try Self.check(root, against: shape, path: "")
    }

    private static func check(_ value: JSONValue, against shape: FieldShape, path: String) throws(GatewayError) {
        switch (shape, value) {
        case (_, .null), (.any, _):
            return
        case (.text, .string), (.text, .integer), (.text, .double):
            return
        case (.text, _):
            throw GatewayError.invalid(path, "Value for '\(path)' must be a string")
        case (.object(let fields), .object(let members)):
            for (name, member) in members {
                let childPath = path.isEmpty ? name : "\(path).\(name)"
                guard let childShape = fields[name] else { throw GatewayError.unexpected(childPath) }
                try check(member, against: childShape, path: childPath)
            }
        case (.object, _):
            throw GatewayError.invalid(path, "Value for '\(path)' must be an object")
        }
    }

    func value(_ path: String) -> JSONValue? {
        var current = root
        for name in path.split(separator: ".") {
            guard let next = current[String(name)], next != .null else { return nil }
            current = next
        }
        return current
    }

    /// The text of a field; numbers come back as their decimal text.
    func text(_ path: String) -> String? {
        switch value(path) {
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): number.description
        default: nil
        }
    }

    func requiredText(_ path: String) throws(GatewayError) -> String {
        guard let text = text(path), !text.isEmpty else { throw GatewayError.missing(path) }
        return text
    }

    /// Whether any field below `path` has a value.
    func hasContent(_ path: String) -> Bool {
        switch value(path) {
        case nil: false
        case .object(let members): members.values.contains { $0 != .null && $0 != .object([:]) }
        default: true
        }
    }
}
