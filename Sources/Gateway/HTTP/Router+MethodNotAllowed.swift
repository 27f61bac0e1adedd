import Hummingbird

extension Router where Context == GatewayRequestContext {
    /// Answers every other method on `path` with 405 and an `Allow` header, as HTTP asks;
    /// the router alone would say 404, as if the resource did not exist.
    func refuseMethods(except allowed: [HTTPRequest.Method], on path: RouterPath) {
        var candidates: [HTTPRequest.Method] = [.get, .put, .post, .delete, .patch, .options, .trace]
        candidates.append(HTTPRequest.Method("QUERY")!)
        // HEAD belongs with GET; only a resource without GET refuses it.
        if !allowed.contains(.get) { candidates.append(.head) }
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        for method in candidates where !allowed.contains(method) {
            on(path, method: method) { _, _ -> Response in
                var error = GatewayError(
                    status: .methodNotAllowed,
                    cause: .invalidRequest,
                    explanation: "Method \(method.rawValue) is not allowed on this resource; use \(allow)"
                )
                error.allow = allow
                throw error
            }
        }
    }
}
