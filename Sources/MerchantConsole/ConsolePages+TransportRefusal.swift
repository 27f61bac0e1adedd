import GatewayHTTP

extension ConsoleRoutes {
    /// Whether `path` is the console's (a browser there reads a page, not JSON).
    package static func serves(_ path: String) -> Bool {
        path == "/ma" || path.hasPrefix("/ma/") || path.hasPrefix("/ma?")
    }

    /// The console's page for a request the transport refused before any route saw it.
    package static func answer(for refusal: TransportRefusal) -> RefusalAnswer {
        let why =
            switch refusal {
            case .malformed(let why): "The browser's request could not be read: \(why)."
            case .codingNotImplemented(let codings): "The browser's request used Transfer-Encoding '\(codings)', which is not supported."
            }
        let html = ConsolePages.shared.html("message", ["title": "Bad request", "error": why])
        return RefusalAnswer(status: refusal.status, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }
}
