import ApplePayToken
import GatewayCore
import WireJSON

/// Reads a request body against a ``FieldShape``: checks every name and type first, then hands
/// out values by dotted path. `null` counts as absent.
struct RequestReader {
    let root: JSONValue

    init(body: [UInt8], shape: FieldShape) throws(GatewayError) {
        root = try Self.parse(body)
        try Self.check(root, against: shape, path: "")
    }

    private static func parse(_ body: [UInt8]) throws(GatewayError) -> JSONValue {
        guard !body.isEmpty else { throw GatewayError.malformedJSON("the request has no body") }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: body)
        } catch {
            if let key = error.duplicateKey {
                throw GatewayError.malformedJSON("the body repeats the key '\(key.prefix(64))' within one object")
            }
            throw GatewayError.malformedJSON("the body is not valid JSON")
        }
        guard case .object = root else { throw GatewayError.malformedJSON("the body is not a JSON object") }
        return root
    }

    /// Where a value sits below its parent.
    private enum Step {
        case member(String)
        case element(Int)
    }

    /// A field's dotted path, spelt out only when something needs it (an error, a nested
    /// object's members): most fields are valid leaves, and building each one's path was a string
    /// interpolation and, past 15 bytes, a heap string.
    private static func path(_ parent: String, _ step: Step?) -> String {
        switch step {
        case nil: parent
        case .member(let name): parent.isEmpty ? name : "\(parent).\(name)"
        case .element(let index): "\(parent)[\(index)]"
        }
    }

    private static func check(_ value: JSONValue, against shape: FieldShape, path parent: String, _ step: Step? = nil) throws(GatewayError) {
        switch (shape, value) {
        case (_, .null), (.any, _):
            return
        case (.elsewhere, _):
            if value.hasContent { throw GatewayError.unexpected(path(parent, step)) }
        case (.value(let field), _):
            try field.format.check(value, field: path(parent, step), secret: field.isSecret)
        case (.text, .string), (.text, .integer), (.text, .double):
            return
        case (.text, _):
            let path = path(parent, step)
            throw GatewayError.invalid(path, "Value for '\(path)' must be a string")
        case (.object(let fields, let chosen), .object(let members)):
            let path = path(parent, step)
            for (name, member) in members {
                // A null is absent: an optional field the request does not use (WooCommerce sends
                // "3DSecureId": null at version 100, where the field is gone) is no error. Names
                // the gateway does not know at all stay unexpected.
                if case .null = member, Self.catalogueNames.contains(name) { continue }
                guard let childShape = fields[name] ?? chosen else { throw GatewayError.unexpected(Self.path(path, .member(name))) }
                try check(member, against: childShape, path: path, .member(name))
            }
        case (.object, _):
            let path = path(parent, step)
            throw GatewayError.invalid(path, "Value for '\(path)' must be an object")
        case (.array(let item), .array(let elements)):
            let path = path(parent, step)
            for (index, element) in elements.enumerated() {
                try check(element, against: item, path: path, .element(index))
            }
        case (.array, _):
            let path = path(parent, step)
            throw GatewayError.invalid(path, "Value for '\(path)' must be an array")
        }
    }

    /// Every name the request catalogues use, at any depth, operation or version (`[n]` dropped).
    static let catalogueNames: Set<String> = Set(
        (RequestCatalogue.transactionRequest.fields + CheckoutCatalogue.catalogue.fields).flatMap { field in
            field.components.map { $0.hasSuffix("[n]") ? String($0.dropLast(3)) : String($0) }
        }
    )

    /// The value at a dotted path. Walked name by name over the path's contiguous bytes, each
    /// name made a small string (no allocation up to 15 bytes): the payment readers ask for dozens
    /// of paths per request, and searching the path through `String.UTF8View` and copying each
    /// name through `Substring` was a third of this function's time.
    func value(_ path: String) -> JSONValue? {
        var path = path
        return path.withUTF8 { bytes in
            var current = root
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ".") { end += 1 }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                guard case .object(let members) = current, let next = members[name] else { return nil }
                if case .null = next { return nil }
                current = next
                if end == bytes.count { return current }
                start = end + 1
            }
        }
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

    /// Reads the body as JSON and checks it against the shape `shapeFor` picks from the body
    /// itself (the transaction request's shape depends on its `apiOperation`).
    init(body: [UInt8], shapeFor: (JSONValue) throws(GatewayError) -> FieldShape) throws(GatewayError) {
        let root = try Self.parse(body)
        try Self.check(root, against: try shapeFor(root), path: "")
        self.root = root
    }
}

extension JSONValue {
    /// Whether anything below is a value: `null`, `{}`, `[]` and objects or arrays of those carry nothing.
    var hasContent: Bool {
        switch self {
        case .null: false
        case .object(let members): members.values.contains(where: \.hasContent)
        case .array(let elements): elements.contains(where: \.hasContent)
        default: true
        }
    }
}

extension RequestReader {
    /// A reader over JSON already checked against its shape (a session's content laid under a
    /// checked request).
    init(checked root: JSONValue) {
        self.root = root
    }
}
