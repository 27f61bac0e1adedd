import GatewayCore
import GatewayHTTP
import Hummingbird
import NIOCore

/// The sandbox ACS page, served by the gateway itself (sandbox mode only: production has no
/// simulated issuer, and does not register these routes). `POST /acs/challenge` takes the
/// `creq` that `authentication.redirect.html` posts and shows the challenge;
/// `POST /acs/challenge/result` takes the payer's answer, completes the authentication in the
/// store and sends the browser back to the merchant's `redirectResponseUrl`.
package struct ACSRoutes: Sendable {
    let processor: AuthenticationProcessor
    let maxBodyBytes: Int

    package init(processor: AuthenticationProcessor, maxBodyBytes: Int) {
        self.processor = processor
        self.maxBodyBytes = maxBodyBytes
    }

    package static let challengePath = "/acs/challenge"
    static let resultPath = "/acs/challenge/result"

    package func register(on router: Router<GatewayRequestContext>) {
        router.post(RouterPath(Self.challengePath)) { request, _ in try await challenge(request) }
        router.post(RouterPath(Self.resultPath)) { request, _ in try await result(request) }
        router.refuseMethods(except: [.post], on: RouterPath(Self.challengePath))
        router.refuseMethods(except: [.post], on: RouterPath(Self.resultPath))
    }

    private func challenge(_ request: Request) async throws -> Response {
        guard let form = try await form(request), let challengeId = form["creq"], !challengeId.isEmpty else {
            return Self.html(.badRequest, ACSPage.problem("The request carries no challenge (creq)."))
        }
        guard
            let authentication = try await processor.store.authentication(challengeId: challengeId),
            authentication.status == .pending
        else { return Self.notPending }
        return Self.html(
            .ok,
            ACSPage.challenge(
                challengeId,
                merchant: authentication.merchantId,
                amount: "\(authentication.amount.text) \(authentication.amount.currency.code)",
                card: authentication.card.maskedNumber
            )
        )
    }

    private func result(_ request: Request) async throws -> Response {
        guard let form = try await form(request), let challengeId = form["creq"], !challengeId.isEmpty else {
            return Self.html(.badRequest, ACSPage.problem("The request carries no challenge (creq)."))
        }
        let outcome: ChallengeOutcome
        switch Self.payerAnswer(form, codeName: "code") {
        case .success(let answered): outcome = answered
        case .failure(let refusal): return refusal.page
        }
        let authentication: PayerAuthentication
        do {
            authentication = try await processor.completeChallenge(challengeId: challengeId, outcome: outcome)
        } catch AuthenticationRejection.challengeNotPending {
            return Self.notPending
        }
        guard let url = authentication.redirectResponseUrl else { return Self.notPending }
        let (result, _) = AuthenticationResponse.outcome(authentication.status)
        return Self.html(
            .ok,
            ACSPage.returnToMerchant(
                url,
                fields: [
                    ("order.id", authentication.orderId), ("transaction.id", authentication.transactionId),
                    ("result", result),
                    ("response.gatewayRecommendation", authentication.status.proceed ? "PROCEED" : "DO_NOT_PROCEED"),
                ]
            )
        )
    }

    private static var notPending: Response {
        html(.notFound, ACSPage.problem("This challenge is unknown or has been answered already. Start again from the merchant's page."))
    }

    /// The posted form; nil when it is not a form.
    private func form(_ request: Request) async throws -> [String: String]? {
        try await Self.form(request, limit: maxBodyBytes)
    }

    /// A sandbox ACS page's posted form (3-D Secure 2's and 1's); nil when it is not a form.
    static func form(_ request: Request, limit: Int) async throws -> [String: String]? {
        FormBody.parse(try await GatewayRoutes.body(of: request, limit: limit))
    }

    /// An ACS page the payer's answer could not be read from.
    struct UnreadableAnswer: Error {
        let page: Response
    }

    /// The payer's answer on a sandbox ACS page: the outcome picked (Y or N), else the code typed
    /// (1234 authenticates, anything else fails). `codeName` words the page's complaint.
    static func payerAnswer(_ form: [String: String], codeName: String) -> Result<ChallengeOutcome, UnreadableAnswer> {
        if let picked = form["outcome"], !picked.isEmpty {
            guard let chosen = ChallengeOutcome(rawValue: picked) else {
                return .failure(UnreadableAnswer(page: html(.badRequest, ACSPage.problem("The outcome must be Y or N."))))
            }
            return .success(chosen)
        }
        if let code = form["code"], !code.isEmpty { return .success(code == "1234" ? .authenticated : .notAuthenticated) }
        return .failure(UnreadableAnswer(page: html(.badRequest, ACSPage.problem("Enter the \(codeName) or pick an outcome."))))
    }

    static func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; form-action http: https:",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}
