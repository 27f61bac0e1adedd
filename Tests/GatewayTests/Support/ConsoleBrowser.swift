import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GatewayCore

/// Merchant Administration as a browser uses it: a cookie jar, forms posted as
/// `application/x-www-form-urlencoded`, and the CSRF token read off the page.
final class ConsoleBrowser: @unchecked Sendable {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    struct Page {
        var status: HTTPResponse.Status
        var location: String?
        var html: String
        var contentType: String?
        /// The response's Set-Cookie headers, as sent.
        var setCookies: [String] = []

        /// The first hidden input of that name on the page.
        func hidden(_ name: String) -> String? {
            guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }

        /// Every hidden input of that name, in page order.
        func hiddenValues(_ name: String) -> [String] {
            html.components(separatedBy: "name=\"\(name)\" value=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
    }

    func get(_ path: String) async throws -> Page {
        try await send(path, method: .get, body: nil)
    }

    func post(_ path: String, _ fields: [(String, String)]) async throws -> Page {
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(path, method: .post, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// A `multipart/form-data` form with one file, as a browser uploads it.
    func upload(_ path: String, _ fields: [(String, String)], file: (name: String, filename: String, bytes: [UInt8])) async throws -> Page {
        let boundary = "----console\(UInt32.random(in: 0 ... .max))"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8
        )
        body += file.bytes + Array("\r\n--\(boundary)--\r\n".utf8)
        return try await send(path, method: .post, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// Logs in through the form; returns the page the login answered with (a 303 on success).
    func login(merchant: String, name: String, password: String) async throws -> Page {
        let form = try await get("/ma/login")
        return try await post(
            "/ma/login",
            [("csrf", form.hidden("csrf") ?? ""), ("merchant", merchant), ("name", name), ("password", password)]
        )
    }

    func forget(_ cookie: String) { cookies[cookie] = nil }

    private func send(_ path: String, method: HTTPRequest.Method, body: [UInt8]?, contentType: String? = nil) async throws -> Page {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        let (page, setCookies) = try await client.execute(
            uri: path,
            method: method,
            headers: headers,
            body: body.map { ByteBuffer(bytes: $0) }
        ) { response in
            (
                Page(
                    status: response.status,
                    location: response.headers[.location],
                    html: String(buffer: response.body),
                    contentType: response.headers[.contentType],
                    setCookies: response.headers[values: .setCookie]
                ),
                response.headers[values: .setCookie]
            )
        }
        for header in setCookies {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if header.contains("Max-Age=0") { cookies[String(pair[0])] = nil } else { cookies[String(pair[0])] = String(pair[1]) }
        }
        return page
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    /// The payer approves, on the sandbox PayPal page, the payment an INITIATE_BROWSER_PAYMENT
    /// answer (`initiated`) redirects to.
    func approveAtPayPal(_ initiated: Exchange) async throws {
        let redirectUrl = try #require(initiated.string("browserPayment.redirectUrl"))
        let sealed = try #require(URLComponents(string: redirectUrl)?.queryItems?.first { $0.name == "interaction" }?.value)
        let decided = try await post("/browserPayment/paypal/decision", [("interaction", sealed), ("decision", "APPROVE")])
        #expect(decided.status == .ok)
    }
}
