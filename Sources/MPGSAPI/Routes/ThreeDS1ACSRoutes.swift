import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// The sandbox 3-D Secure 1 ACS page, served by the gateway itself in sandbox mode only.
/// `POST /acs/3ds1` takes the PaReq, TermUrl and MD the merchant's page posts and shows the
/// challenge; `POST /acs/3ds1/result` takes the payer's answer and posts PaRes and MD to the
/// TermUrl, where the merchant sends PROCESS_ACS_RESULT.
package struct ThreeDS1ACSRoutes: Sendable {
    let processor: ThreeDS1Processor
    let maxBodyBytes: Int

    package init(processor: ThreeDS1Processor, maxBodyBytes: Int) {
        self.processor = processor
        self.maxBodyBytes = maxBodyBytes
    }

    package static let challengePath = "/acs/3ds1"
    static let resultPath = "/acs/3ds1/result"

    package func register(on router: Router<GatewayRequestContext>) {
        router.post(RouterPath(Self.challengePath)) { request, _ in try await challenge(request) }
        router.post(RouterPath(Self.resultPath)) { request, _ in try await result(request) }
        router.refuseMethods(except: [.post], on: RouterPath(Self.challengePath))
        router.refuseMethods(except: [.post], on: RouterPath(Self.resultPath))
    }

    private func challenge(_ request: Request) async throws -> Response {
        guard let form = try await form(request), let paReq = form["PaReq"], !paReq.isEmpty else {
            return ACSRoutes.html(.badRequest, ACSPage.problem("The request carries no PaReq."))
        }
        guard
            let authentication = try await processor.store.threeDS1Authentication(paReq: paReq),
            authentication.status == .cardEnrolled
        else { return Self.notPending }
        return ACSRoutes.html(
            .ok,
            ACSPage.threeDS1Challenge(
                paReq: paReq,
                termURL: Self.termURL(form["TermUrl"]) ?? authentication.responseUrl,
                md: form["MD"] ?? "",
                merchant: authentication.merchantId,
                amount: "\(authentication.amount.text) \(authentication.amount.currency.code)",
                card: authentication.card.maskedNumber
            )
        )
    }

    private func result(_ request: Request) async throws -> Response {
        guard let form = try await form(request), let paReq = form["PaReq"], !paReq.isEmpty else {
            return ACSRoutes.html(.badRequest, ACSPage.problem("The request carries no PaReq."))
        }
        let outcome: ChallengeOutcome
        switch ACSRoutes.payerAnswer(form, codeName: "password") {
        case .success(let answered): outcome = answered
        case .failure(let refusal): return refusal.page
        }
        let authentication: ThreeDS1Authentication
        do {
            authentication = try await processor.answer(paReq: paReq, outcome: outcome)
        } catch ThreeDS1Rejection.paReqNotPending {
            return Self.notPending
        }
        guard let paRes = authentication.paRes else { return Self.notPending }
        // Back to the TermUrl the merchant's form gave (an issuer's ACS does the same), else to
        // the responseUrl of the enrollment check.
        let termURL = Self.termURL(form["TermUrl"]) ?? authentication.responseUrl
        return ACSRoutes.html(
            .ok,
            ACSPage.returnToMerchant(termURL, fields: [("PaRes", paRes), ("MD", form["MD"] ?? "")])
        )
    }

    /// A TermUrl the page may post to: an absolute http or https address.
    static func termURL(_ text: String?) -> String? {
        guard let text, let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { return nil }
        return text
    }

    private static var notPending: Response {
        ACSRoutes.html(
            .notFound,
            ACSPage.problem("This authentication is unknown or has been answered already. Start again from the merchant's page.")
        )
    }

    private func form(_ request: Request) async throws -> [String: String]? {
        try await ACSRoutes.form(request, limit: maxBodyBytes)
    }
}
