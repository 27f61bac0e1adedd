import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging

/// Merchant Administration at `/ma/`: login and logout, the order search, the order page with
/// CAPTURE, VOID and REFUND, and the audit log. Server-rendered HTML; no page needs JavaScript.
package struct ConsoleRoutes: Sendable {
    static let sessionCookie = "ma_session"
    static let loginCookie = "ma_login"
    /// Forms are small; a larger body is refused unread.
    static let maxFormBytes = 16 * 1024
    /// A certificate upload: Apple's .cer is about 1.5 KB.
    static let maxUploadBytes = 64 * 1024

    let services: ConsoleServices
    let pages = ConsolePages.shared

    package init(services: ConsoleServices) {
        self.services = services
    }

    package func register(on router: Router<GatewayRequestContext>) {
        router.get("/ma") { _, _ in ConsolePages.redirect(to: "/ma/orders") }
        router.get("/ma/console.css") { _, _ in
            var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: ConsoleStyle.css)))
            response.headers[.contentType] = "text/css; charset=utf-8"
            response.headers[.cacheControl] = "max-age=3600"
            return response
        }
        router.get("/ma/login") { request, _ in loginPage(request: request) }
        router.post("/ma/login") { request, context in await login(request, context) }
        router.post("/ma/logout") { request, context in
            await withSession(request, context, form: true) { session, _ in await logout(session, context) }
        }
        router.get("/ma/orders") { request, context in
            await withSession(request, context, form: false) { session, _ in try await orders(request, session) }
        }
        router.get("/ma/orders/:orderId") { request, context in
            await withSession(request, context, form: false) { session, _ in
                guard let orderId = context.pathSegment("orderId") else { return refusal(.invalidField("the order ID"), session: session) }
                return try await orderPage(orderId, session)
            }
        }
        router.post("/ma/orders/:orderId/:action") { request, context in
            await withSession(request, context, form: true) { session, form in
                guard let orderId = context.pathSegment("orderId") else { return refusal(.invalidField("the order ID"), session: session) }
                return try await act(
                    orderId: orderId,
                    action: context.parameters.get("action") ?? "",
                    form: form,
                    session: session,
                    context: context
                )
            }
        }
        router.get("/ma/audit") { request, context in
            await withSession(request, context, form: false) { session, _ in try await audit(session) }
        }
        registerApplePay(on: router)
        registerSandbox(on: router)
        registerIntegration(on: router)
    }

    /// The values the layout needs for a logged-in operator.
    func frame(_ session: ConsoleSession, title: String) -> [String: Any] {
        [
            "title": title,
            "session": [
                "csrf": session.csrfToken, "operator": session.operatorName, "role": session.role.rawValue,
                "merchant": session.merchantId, "sandbox": services.sandbox != nil,
            ],
        ]
    }

    /// Records an operator's action in the audit log, at the console's clock.
    func audit(_ session: ConsoleSession, _ context: GatewayRequestContext, _ action: AuditEntry.Action, _ detail: String) async throws {
        try await services.store.appendAudit(
            AuditEntry(
                merchantId: session.merchantId,
                operatorName: session.operatorName,
                action: action,
                detail: detail,
                address: context.remoteAddress,
                time: services.clock()
            )
        )
    }

    /// A refusal as a page (inside the frame when there is a session).
    func refusal(_ rejection: ConsoleRejection, session: ConsoleSession?) -> Response {
        var values = session.map { frame($0, title: "Refused") } ?? ["title": "Refused"]
        values["error"] = rejection.wording
        return pages.render("message", values, status: rejection.status)
    }

    func cookie(_ name: String, _ value: String, maxAge: Int? = nil) -> Cookie {
        Cookie(
            name: name,
            value: value,
            maxAge: maxAge,
            path: "/ma",
            secure: services.secureCookies,
            httpOnly: true,
            sameSite: .strict
        )
    }

    /// Runs `body` for a live session; a POST must carry the session's CSRF token. Without a live
    /// session a GET goes to the login page and a POST is refused; either way nothing is done.
    func withSession(
        _ request: Request,
        _ context: GatewayRequestContext,
        form readsForm: Bool,
        _ body: (ConsoleSession, FormFields) async throws -> Response
    ) async -> Response {
        do {
            let now = services.clock()
            guard let value = request.cookies[Self.sessionCookie]?.value,
                let session = try await services.store.consoleSession(idDigest: ConsoleSession.digest(ofCookie: value)),
                services.policy.isLive(session, at: now)
            else {
                if readsForm { return refusal(.sessionExpired, session: nil) }
                return ConsolePages.redirect(to: "/ma/login")
            }
            var form = FormFields("")!
            if readsForm {
                let contentType = request.headers[.contentType] ?? ""
                let multipart = contentType.lowercased().hasPrefix("multipart/form-data")
                let bytes: [UInt8]
                switch await formBytes(request, limit: multipart ? Self.maxUploadBytes : Self.maxFormBytes) {
                case .success(let read): bytes = read
                case .failure(let rejection): return refusal(rejection, session: session)
                }
                let parsed =
                    multipart
                    ? MultipartForm.parse(bytes, contentType: contentType).map { FormFields(fields: $0.fields, files: $0.files) }
                    : FormFields(bytes: bytes)
                guard let read = parsed else { return refusal(.invalidField("the form"), session: session) }
                guard let token = read.raw("csrf"), Self.constantTimeEqual(token, session.csrfToken) else {
                    try await services.store.appendAudit(
                        AuditEntry(
                            merchantId: session.merchantId,
                            operatorName: session.operatorName,
                            action: .csrfRefused,
                            detail: request.uri.path,
                            address: context.remoteAddress,
                            time: now
                        )
                    )
                    return refusal(.csrfTokenMismatch, session: session)
                }
                form = read
            }
            try await services.store.touchConsoleSession(idDigest: session.idDigest, at: now)
            return try await body(session, form)
        } catch {
            context.logger.error("console request failed", metadata: ["error": "\(error)"])
            return pages.render("message", ["title": "Unavailable", "error": "The console cannot answer now."], status: .serviceUnavailable)
        }
    }

    /// A form's body: too large is 413 and unreadable 400, each on the console's own page (they
    /// were thrown into the catch-all and answered 503, as if the console were down).
    func formBytes(_ request: Request, limit: Int) async -> Result<[UInt8], ConsoleRejection> {
        do throws(RequestBodyFailure) {
            return .success(try await RequestBytes.collect(request, limit: limit))
        } catch {
            switch error {
            case .tooLarge(let limit): return .failure(.formTooLarge(limit: limit))
            case .malformed: return .failure(.invalidField("the form"))
            }
        }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
