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
            let bytes: [UInt8]
            switch await formBytes(request, limit: Self.maxFormBytes) {
            case .success(let read): bytes = read
            case .failure(let refusal): return loginPage(request: request, error: refusal)
            }
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
            let knownMerchant = services.merchants[merchantId] != nil
            let namesOperator: Bool
            let result: Result<StoredOperator, ConsoleRejection>
            if let refusal = policy.refusesAddress(failures: failures) {
                // Refused before anything is counted or hashed: the address is not the operator's.
                let stored = knownMerchant ? try await services.store.consoleOperator(merchantId: merchantId, name: name) : nil
                namesOperator = stored != nil
                result = .failure(refusal)
            } else {
                // A place in the password line first: a login it refuses is not counted. Then the
                // attempt is counted before its password is checked, so concurrent wrong
                // passwords lock at the limit and none past it is ever checked.
                let store = services.store
                guard
                    let decided = try await services.passwordChecks.withPlace(
                        from: address,
                        { place in
                            let attempt =
                                knownMerchant
                                ? try await store.countLoginAttempt(merchantId: merchantId, name: name) { policy.count($0, at: now) }
                                : LoginAttempt.unknown
                            return (attempt, await place.check { policy.login(attempt, password: password) })
                        }
                    )
                else {
                    return loginPage(request: request, error: .loginsBusy, merchantId: merchantId, name: name)
                }
                namesOperator = decided.0 != .unknown
                result = decided.1
            }
            switch result {
            case .failure(let rejection):
                try await services.store.recordLoginFailure(address: address, at: now)
                if namesOperator {
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
                // Paced by the address's failures alone: an operator's count would tell a known
                // name from an unknown one.
                try? await Task.sleep(for: policy.delay(afterFailures: failures + 1))
                return loginPage(request: request, error: rejection, merchantId: merchantId, name: name)
            case .success(let loggedIn):
                try await services.store.clearLoginFailures(merchantId: loggedIn.merchantId, name: loggedIn.name)
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
