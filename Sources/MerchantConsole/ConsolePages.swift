import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The console's templates, parsed once, and pages rendered from them as HTML responses.
struct ConsolePages: Sendable {
    /// The templates are constants, so one parse serves every app in the process (a test run
    /// starts hundreds of apps, and each parsed all ten templates again).
    static let shared = ConsolePages()

    private let library: MustacheLibrary

    private init() {
        var library = MustacheLibrary()
        // The templates are constants of this module: a parse failure is a programming error
        // that every test of the console would show at once.
        let templates: [(String, String)] = [
            ("header", LayoutTemplates.header), ("footer", LayoutTemplates.footer), ("login", LoginTemplate.text),
            ("orders", OrdersTemplate.text), ("order", OrderTemplate.text), ("audit", AuditTemplate.text),
            ("message", MessageTemplate.text), ("certificates", CertificatesTemplate.text),
            ("sandbox", SandboxTemplate.text), ("integration", IntegrationTemplate.text),
        ]
        for (name, text) in templates {
            do { try library.register(text, named: name) } catch { preconditionFailure("console template \(name): \(error)") }
        }
        self.library = library
    }

    /// A page as a response: HTML, never cached, never framed, and no resource from elsewhere.
    func render(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = html(template, values)
        var response = Response(status: status, headers: Self.headers, body: .init(byteBuffer: ByteBuffer(string: html)))
        response.headers[.contentType] = "text/html; charset=utf-8"
        return response
    }

    func html(_ template: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: template) ?? ""
    }

    static let headers: HTTPFields = [
        .cacheControl: "no-store",
        .contentSecurityPolicy: "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    /// A 303 to another console page (after a POST, so reloading does not post again).
    static func redirect(to location: String, cookies: [Cookie] = []) -> Response {
        var response = Response(status: .seeOther, headers: headers)
        response.headers[.location] = location
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }
}
