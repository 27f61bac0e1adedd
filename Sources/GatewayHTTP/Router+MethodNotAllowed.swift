import Hummingbird

extension Router where Context == GatewayRequestContext {
    /// Answers every other method on `path` with 405 and an `Allow` header, as HTTP asks;
    /// the router alone would say 404, as if the resource did not exist.
    package func refuseMethods(except allowed: [HTTPRequest.Method], on path: RouterPath) {
        var candidates: [HTTPRequest.Method] = [.get, .put, .post, .delete, .patch, .options, .trace]
        candidates.append(HTTPRequest.Method("QUERY")!)
        // HEAD belongs with GET; only a resource without GET refuses it.
        if !allowed.contains(.get) { candidates.append(.head) }
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        for method in candidates where !allowed.contains(method) {
            on(path, method: method) { _, _ -> Response in
                throw MethodNotAllowed(method: method, allow: allow)
            }
        }
    }
}

/// A method the resource does not serve: each API's error middleware answers it in its own format,
/// with the `Allow` header.
package struct MethodNotAllowed: Error, Sendable {
    package let method: HTTPRequest.Method
    /// The methods the resource serves, as the `Allow` header lists them.
    package let allow: String
}
