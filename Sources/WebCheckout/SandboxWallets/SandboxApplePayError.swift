import HTTPTypes
import WireJSON

/// A request the sandbox Apple Pay endpoints refuse: a 400 with the gateway's error body
/// (`{"result":"ERROR","error":{"cause":"INVALID_REQUEST","explanation":...,"field":...}}`), naming
/// the field at fault. The routes answer it themselves, so the answer carries the CORS headers a
/// merchant page needs to read it.
struct SandboxApplePayError: Error, Sendable {
    enum ValidationType: String, Sendable {
        case missing = "MISSING"
        case invalid = "INVALID"
    }

    var status: HTTPResponse.Status = .badRequest
    var field: String?
    var validationType: ValidationType?
    var explanation: String

    static func missing(_ field: String) -> SandboxApplePayError {
        SandboxApplePayError(field: field, validationType: .missing, explanation: "Missing parameter '\(field)'")
    }

    static func invalid(_ field: String, _ explanation: String) -> SandboxApplePayError {
        SandboxApplePayError(field: field, validationType: .invalid, explanation: explanation)
    }

    static func request(_ explanation: String) -> SandboxApplePayError {
        SandboxApplePayError(explanation: explanation)
    }

    var body: JSONValue {
        var error: [String: JSONValue] = ["cause": .string("INVALID_REQUEST"), "explanation": .string(explanation)]
        if let field { error["field"] = .string(field) }
        if let validationType { error["validationType"] = .string(validationType.rawValue) }
        return .object(["result": .string("ERROR"), "error": .object(error)])
    }
}

/// Reading the posted JSON: each accessor names the field (with its path) when it is missing or
/// of the wrong type.
struct SandboxApplePayFields {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String = "") {
        self.value = value
        self.path = path
    }

    /// A body that must be a JSON object.
    init(body: [UInt8]) throws(SandboxApplePayError) {
        guard let parsed = try? JSONValue(parsing: body), case .object = parsed else {
            throw .request("The request body must be a JSON object")
        }
        self.init(parsed)
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func optionalText(_ key: String) throws(SandboxApplePayError) -> String? {
        switch value[key] {
        case nil, .null: return nil
        case .string(let text): return text
        default: throw .invalid(name(key), "'\(name(key))' must be a string")
        }
    }

    func text(_ key: String) throws(SandboxApplePayError) -> String {
        guard let text = try optionalText(key), !text.isEmpty else { throw .missing(name(key)) }
        return text
    }

    func integer(_ key: String) throws(SandboxApplePayError) -> Int64 {
        switch value[key] {
        case nil, .null: throw .missing(name(key))
        case .integer(let number): return number
        case .double(let number) where number == number.rounded() && abs(number) < 9e15: return Int64(number)
        default: throw .invalid(name(key), "'\(name(key))' must be an integer")
        }
    }

    func object(_ key: String) throws(SandboxApplePayError) -> SandboxApplePayFields {
        switch value[key] {
        case nil, .null: throw .missing(name(key))
        case .object(let object): return SandboxApplePayFields(.object(object), path: name(key))
        default: throw .invalid(name(key), "'\(name(key))' must be an object")
        }
    }
}
