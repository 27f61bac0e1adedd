import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging
import MPGSAPI
import WireJSON

/// Apple Pay on the full payment page (sandbox): the page's `onvalidatemerchant` gets a merchant
/// session for the checkout's merchant and the gateway's own domain, its `onpaymentauthorized`
/// pays with the sheet's token through the API's device-payment path.
extension HostedCheckoutRoutes {
    func registerApplePay(on router: Router<GatewayRequestContext>) {
        router.post("/checkout/applepay/:sessionId/validate") { request, context in
            await walletRequest(request, context) { checkout, _ in try validate(checkout, request) }
        }
        router.post("/checkout/applepay/:sessionId/pay") { request, context in
            await walletRequest(request, context) { checkout, fields in try await pay(checkout, fields, context) }
        }
        router.refuseMethods(except: [.post], on: "/checkout/applepay/:sessionId/validate")
        router.refuseMethods(except: [.post], on: "/checkout/applepay/:sessionId/pay")
    }

    private func validate(_ checkout: HostedCheckoutPayments.Checkout, _ request: Request) throws -> JSONValue {
        guard let sandbox = sandboxApplePay, let identity = checkout.merchant.keyRing.identities.first else {
            throw GatewayError.invalidBrowserRequest(nil, "Apple Pay is not available for this merchant")
        }
        let host = URL(string: Self.origin(request))?.host ?? "localhost"
        return sandbox.signer.issue(
            merchantIdentifierHash: identity.merchantIdentifierHash,
            domainName: host,
            displayName: displayName(checkout),
            now: payments.now()
        ).json
    }

    private func pay(_ checkout: HostedCheckoutPayments.Checkout, _ fields: JSONValue, _ context: GatewayRequestContext) async throws -> JSONValue {
        guard let paymentData = fields["paymentData"] else {
            throw GatewayError.invalidBrowserRequest("paymentData", "Missing parameter 'paymentData': the Apple Pay payment's token.paymentData")
        }
        return walletAnswer(
            try await payments.payWithApplePay(checkout, paymentData: paymentData, logger: context.logger),
            checkout,
            wallet: "Apple Pay"
        )
    }

    /// What the page's script hears after a wallet payment: where to go next, or why not.
    func walletAnswer(_ outcome: HostedCheckoutPayments.Outcome, _ checkout: HostedCheckoutPayments.Checkout, wallet: String) -> JSONValue {
        switch outcome {
        case .completed(let indicator, let version, _):
            return .object([
                "result": .string("SUCCESS"), "next": .string(completionURL(checkout, resultIndicator: indicator, sessionVersion: version)),
            ])
        case .retry(let message):
            return .object(["result": .string("FAILURE"), "message": .string(message), "next": .null])
        case .timedOut:
            return .object(["result": .string("FAILURE"), "message": .string("The time to complete this payment has run out."), "next": .null])
        case .challenge, .invalid:
            return .object([
                "result": .string("FAILURE"), "message": .string("\(wallet) could not be used for this payment. Pay by card instead."), "next": .null,
            ])
        }
    }

    /// Reads the JSON body, checks the form token, runs `handler` and answers its JSON, or the
    /// refusal as `{"result":"ERROR","message":…}`.
    func walletRequest(
        _ request: Request,
        _ context: GatewayRequestContext,
        _ handler: (HostedCheckoutPayments.Checkout, JSONValue) async throws -> JSONValue
    ) async -> Response {
        do {
            guard let bytes = await body(request), let fields = try? JSONValue(parsing: bytes), case .object = fields else {
                return BrowserResponse.json(.badRequest, Self.failure("The request body must be a JSON object"))
            }
            guard let checkout = try await payments.open(context.parameters.get("sessionId") ?? "") else {
                return BrowserResponse.json(.notFound, Self.failure(GatewayError.unknownCheckoutSession.explanation))
            }
            guard checkout.accepts(formToken: fields["formToken"]?.stringValue ?? "") else {
                return BrowserResponse.json(.forbidden, Self.failure("This request was not made by this checkout session's page"))
            }
            return BrowserResponse.json(.ok, try await handler(checkout, fields))
        } catch {
            let refusal = GatewayError.refusal(for: error, logger: context.logger)
            return BrowserResponse.json(refusal.status, Self.failure(refusal.pageExplanation))
        }
    }

    static func failure(_ message: String) -> JSONValue {
        .object(["result": .string("ERROR"), "message": .string(message)])
    }

    /// Where the full page goes after a completed payment (the same places as the card form's).
    func completionURL(_ checkout: HostedCheckoutPayments.Checkout, resultIndicator: String, sessionVersion: String) -> String {
        let query = "resultIndicator=\(resultIndicator)&sessionVersion=\(sessionVersion)"
        if let returnUrl = Self.webURL(checkout.settings.returnUrl) { return Self.appending(query, to: returnUrl) }
        if let page = checkout.settings.page?.completeUrl { return "\(page)?\(query)" }
        return "/checkout/receipt/\(checkout.sessionId)?\(query)"
    }
}
