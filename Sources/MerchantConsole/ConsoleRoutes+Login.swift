import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// Logging in (with the login form's own CSRF token, a cookie it must match) and out.
extension ConsoleRoutes {
    func loginPage(request: Request, error: ConsoleRejection? = nil, merchantId: String = "", name: String = "") -> Response {
        let token = ConsoleSession.randomToken()
        var values: [String: Any] = ["title": "Log in", "loginToken": token, "merchantId": merchantId, "name": name]
        if let error { values["error"] = error.wording }
        var response = pages.render("login", values, status: error?.status ?? .ok)
        response.setCookie(cookie(Self.loginCookie, token))
        return response
    }

    func login(_ request: Request, _ context: GatewayRequestContext) async -> Response {
        do {
            let bytes = try await RequestBytes.collect(request, limit: Self.maxFormBytes)
            guard let form = FormFields(bytes: bytes) else { return loginPage(request: request, error: .invalidField("the form")) }
            guard let expected = request.cookies[Self.loginCookie]?.value, let token = form.raw("csrf"),
                Self.constantTimeEqual(token, expected)
            else { return loginPage(request: request, error: .csrfTokenMismatch) }
            let merchantId = form["merchant"] ?? ""
            let name = form["name"] ?? ""
            let password = form.raw("password") ?? ""
            let now = services.clock()
            let address = context.remoteAddress
            let policy = services.policy
            let failures = try await services.store.loginFailures(address: address, since: now.addingTimeInterval(-policy.addressWindow))
            let stored = services.merchants[merchantId] == nil ? nil : try await services.store.consoleOperator(merchantId: merchantId, name: name)
            let decide = { @Sendable in policy.login(stored, password: password, addressFailures: failures, now: now) }
            // A lockout answers at once; a password is checked off the event loops, if there is room.
            guard
                let decision = policy.checksPassword(stored, addressFailures: failures, now: now)
                    ? await services.passwordChecks.run(from: address, decide) : decide()
            else {
                return loginPage(request: request, error: .loginsBusy, merchantId: merchantId, name: name)
            }
            if let updated = decision.updated { _ = try await services.store.updateOperator(updated) }
            switch decision.result {
            case .failure(let rejection):
                try await services.store.recordLoginFailure(address: address, at: now)
                if stored != nil {
                    try await services.store.appendAudit(
                        AuditEntry(
                            merchantId: merchantId,
                            operatorName: name,
                            action: .loginFailed,
                            detail: "\(rejection)",
                            address: address,
                            time: now
                        )
                    )
                }
                // The operator's count already holds this failure; the address's is from before it.
                try? await Task.sleep(for: policy.delay(afterFailures: decision.updated?.failedLogins ?? failures + 1))
                return loginPage(request: request, error: rejection, merchantId: merchantId, name: name)
            case .success(let loggedIn):
                let value = ConsoleSession.randomToken()
                let session = ConsoleSession(
                    idDigest: ConsoleSession.digest(ofCookie: value),
                    merchantId: loggedIn.merchantId,
                    operatorName: loggedIn.name,
                    role: loggedIn.role,
                    csrfToken: ConsoleSession.randomToken(),
                    createdAt: now,
                    lastSeenAt: now
                )
                try await services.store.insertConsoleSession(session)
                try await services.store.appendAudit(
                    AuditEntry(merchantId: merchantId, operatorName: name, action: .login, detail: "", address: address, time: now)
                )
                return ConsolePages.redirect(
                    to: "/ma/orders",
                    cookies: [cookie(Self.sessionCookie, value), cookie(Self.loginCookie, "0", maxAge: 0)]
                )
            }
        } catch {
            context.logger.error("console login failed", metadata: ["error": "\(error)"])
            return pages.render("message", ["title": "Unavailable", "error": "The console cannot answer now."], status: .serviceUnavailable)
        }
    }

    func logout(_ session: ConsoleSession, _ context: GatewayRequestContext) async -> Response {
        do {
            try await services.store.deleteConsoleSession(idDigest: session.idDigest)
            try await services.store.appendAudit(
                AuditEntry(
                    merchantId: session.merchantId,
                    operatorName: session.operatorName,
                    action: .logout,
                    detail: "",
                    address: context.remoteAddress,
                    time: services.clock()
                )
            )
        } catch {
            context.logger.error("console logout failed", metadata: ["error": "\(error)"])
        }
        return ConsolePages.redirect(to: "/ma/login", cookies: [cookie(Self.sessionCookie, "0", maxAge: 0)])
    }
}
