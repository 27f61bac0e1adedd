import HTTPTypes
import Hummingbird
import NIOCore
import WireJSON

/// The answers of the browser half: pages, scripts and JSON for scripts, each with the headers a
/// payment page needs. Pages load nothing from outside the gateway (the Content-Security-Policy
/// says so to the browser too), are never cached, and may be framed only where a mode embeds them.
package enum BrowserResponse {
    /// Who may put a page in a frame: nobody, or any origin (the embedded payment page lives in the
    /// merchant's page, whose origin the gateway does not know in advance).
    package enum Framing: Sendable {
        case denied
        case anyOrigin
    }

    /// An HTML page. `nonce` lets the page's own inline script run and nothing else inline.
    package static func page(
        _ status: HTTPResponse.Status = .ok,
        _ html: String,
        framing: Framing = .denied,
        nonce: String? = nil
    )
        -> Response
    {
        var scripts = "'self'"
        if let nonce { scripts += " 'nonce-\(nonce)'" }
        let ancestors = framing == .denied ? "'none'" : "*"
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy:
                "default-src 'none'; script-src \(scripts); style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                + "form-action 'self' *; connect-src 'self'; frame-ancestors \(ancestors); base-uri 'none'",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if framing == .denied { headers[HTTPField.Name("X-Frame-Options")!] = "DENY" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// A script the merchant's page loads from the gateway: any origin may load it; it is cached
    /// briefly, as a CDN would.
    package static func script(_ source: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "application/javascript; charset=utf-8",
                .cacheControl: "public, max-age=300",
                .accessControlAllowOrigin: "*",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Cross-Origin-Resource-Policy")!: "cross-origin",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: source))
        )
    }

    /// The payment page's stylesheet: cached briefly, as the scripts are.
    package static func stylesheet(_ source: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/css; charset=utf-8",
                .cacheControl: "public, max-age=300",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: source))
        )
    }

    /// The sandbox 3-D Secure redirect (`authentication.redirect.html`, which posts itself to
    /// the ACS with a small inline script, as the API hands it to merchants).
    package static func challengeRedirect(_ html: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; script-src 'unsafe-inline'; form-action http: https:; base-uri 'none'",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ],
            body: ResponseBody(
                byteBuffer: ByteBuffer(
                    string:
                        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Your bank</title></head><body>\(html)</body></html>"
                )
            )
        )
    }

    /// JSON for a page's script (the gateway's own or the sandbox sheet's): never cached.
    package static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json;charset=UTF-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: value.serialized()))
        )
    }

    /// A redirect the browser follows with GET (after a form post).
    package static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// HTML text: what a merchant or payer typed never becomes markup.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
