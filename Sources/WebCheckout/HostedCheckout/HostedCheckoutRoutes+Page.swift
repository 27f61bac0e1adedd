import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging
import MPGSAPI

/// The payment page: shown, its card form posted, the sandbox ACS's return, Cancel.
extension HostedCheckoutRoutes {
    func registerPage(on router: Router<GatewayRequestContext>) {
        router.get("/checkout/pay/:sessionId") { request, context in
            await showPage(request, context, embedded: false)
        }
        router.get("/checkout/embedded/:sessionId") { request, context in
            await showPage(request, context, embedded: true)
        }
        router.post("/checkout/pay/:sessionId") { request, context in
            await submitCard(request, context)
        }
        router.post("/checkout/pay/:sessionId/authenticated") { request, context in
            await returnFromChallenge(request, context)
        }
        router.post("/checkout/pay/:sessionId/cancel") { request, context in
            await cancel(request, context)
        }
        router.get("/checkout/receipt/:sessionId") { _, _ in
            // Where the page ends when the merchant gave nowhere to return to. The session may be
            // gone (paid), so the page claims nothing about the outcome: the shop confirms it.
            BrowserResponse.page(
                .ok,
                PaymentPage.problem(
                    title: "Thank you",
                    message: "Your payment details have been submitted to the shop, which will confirm your order. You can close this page.",
                    embedded: false
                )
            )
        }
        router.refuseMethods(except: [.get], on: "/checkout/receipt/:sessionId")
        router.refuseMethods(except: [.get, .post], on: "/checkout/pay/:sessionId")
        router.refuseMethods(except: [.get], on: "/checkout/embedded/:sessionId")
        router.refuseMethods(except: [.post], on: "/checkout/pay/:sessionId/authenticated")
        router.refuseMethods(except: [.post], on: "/checkout/pay/:sessionId/cancel")
    }

    // MARK: - Handlers

    private func showPage(_ request: Request, _ context: GatewayRequestContext, embedded: Bool) async -> Response {
        await withCheckout(context, embedded: embedded) { checkout in
            if checkout.settings.hasTimedOut(at: payments.now()) {
                return ending(.timeout, checkout, embedded: embedded)
            }
            return page(model(checkout, embedded: embedded, request: request), embedded: embedded)
        }
    }

    private func submitCard(_ request: Request, _ context: GatewayRequestContext) async -> Response {
        let form = await body(request).flatMap(FormBody.parse) ?? [:]
        let embedded = form["mode"] == "embedded"
        return await withCheckout(context, embedded: embedded) { checkout in
            guard checkout.accepts(formToken: form["formToken"] ?? "") else { return foreignForm(embedded: embedded) }
            let card = HostedCheckoutPayments.EnteredCard(
                number: form["cardNumber"] ?? "",
                expiryMonth: form["expiryMonth"] ?? "",
                expiryYear: form["expiryYear"] ?? "",
                securityCode: form["securityCode"] ?? "",
                nameOnCard: form["nameOnCard"] ?? ""
            )
            let origin = Self.origin(request)
            let mode = embedded ? "embedded" : "page"
            let outcome = try await payments.payWithCard(
                checkout,
                card: card,
                authenticationReturnURL: "\(origin)/checkout/pay/\(checkout.sessionId)/authenticated?mode=\(mode)",
                acsURL: "\(origin)/acs/challenge",
                logger: context.logger
            )
            var entered = EnteredCard()
            entered.expiryMonth = card.expiryMonth
            entered.expiryYear = card.expiryYear
            entered.nameOnCard = card.nameOnCard
            return await respond(outcome, checkout, embedded: embedded, request: request, entered: entered)
        }
    }

    private func returnFromChallenge(_ request: Request, _ context: GatewayRequestContext) async -> Response {
        let form = await body(request).flatMap(FormBody.parse) ?? [:]
        let embedded = request.uri.queryParameters.get("mode") == "embedded"
        return await withCheckout(context, embedded: embedded) { checkout in
            // The ACS posts back the authentication's transaction id; the order is the session's own.
            guard let authenticationId = form["transaction.id"], form["order.id"] == checkout.orderId else {
                return foreignForm(embedded: embedded)
            }
            let outcome = try await payments.payAfterChallenge(checkout, authenticationId: authenticationId, logger: context.logger)
            return await respond(outcome, checkout, embedded: embedded, request: request, entered: EnteredCard())
        }
    }

    private func cancel(_ request: Request, _ context: GatewayRequestContext) async -> Response {
        let form = await body(request).flatMap(FormBody.parse) ?? [:]
        let embedded = form["mode"] == "embedded"
        return await withCheckout(context, embedded: embedded) { checkout in
            guard checkout.accepts(formToken: form["formToken"] ?? "") else { return foreignForm(embedded: embedded) }
            // The page's timer and the gateway's clock may differ by a moment: a timeout posted
            // within two seconds of the deadline is one.
            let timedOut = form["reason"] == "timeout" && checkout.settings.hasTimedOut(at: payments.now().addingTimeInterval(2))
            return ending(timedOut ? .timeout : .cancel, checkout, embedded: embedded)
        }
    }

    // MARK: - Answers

    /// An outcome as the browser gets it: back to the merchant, the page again, or the ACS.
    private func respond(
        _ outcome: HostedCheckoutPayments.Outcome,
        _ checkout: HostedCheckoutPayments.Checkout,
        embedded: Bool,
        request: Request,
        entered: EnteredCard
    ) async -> Response {
        switch outcome {
        case .completed(let indicator, let version, _):
            return completion(checkout, resultIndicator: indicator, sessionVersion: version, embedded: embedded)
        case .timedOut:
            return ending(.timeout, checkout, embedded: embedded)
        case .challenge(let html):
            return BrowserResponse.challengeRedirect(html)
        case .retry(let message):
            // The session may have moved on (a released claim): show it as it is now.
            let current = (try? await payments.open(checkout.sessionId)) ?? checkout
            var model = model(current, embedded: embedded, request: request)
            model.message = message
            model.entered = entered
            return page(model, embedded: embedded)
        case .invalid(let problems):
            var model = model(checkout, embedded: embedded, request: request)
            model.fieldErrors = Dictionary(uniqueKeysWithValues: problems.map { ($0.key.rawValue, $0.value) })
            model.entered = entered
            return page(model, status: .unprocessableContent, embedded: embedded)
        }
    }

    /// Runs `body` on the live checkout the path names; an unknown session, or a refusal, is a
    /// page that says so in words.
    private func withCheckout(
        _ context: GatewayRequestContext,
        embedded: Bool,
        _ body: (HostedCheckoutPayments.Checkout) async throws -> Response
    ) async -> Response {
        do {
            guard let checkout = try await payments.open(context.parameters.get("sessionId") ?? "") else {
                return BrowserResponse.page(
                    .notFound,
                    PaymentPage.problem(
                        title: "This payment link is no longer valid",
                        message:
                            "The checkout session is unknown, has expired or has already been paid. Nothing more will be charged. Return to the shop to start again.",
                        embedded: embedded
                    ),
                    framing: embedded ? .anyOrigin : .denied
                )
            }
            return try await body(checkout)
        } catch {
            let refusal = GatewayError.refusal(for: error, logger: context.logger)
            return BrowserResponse.page(
                refusal.status,
                PaymentPage.problem(
                    title: "The payment could not be completed",
                    message: refusal.pageExplanation,
                    embedded: embedded
                ),
                framing: embedded ? .anyOrigin : .denied
            )
        }
    }

    private func foreignForm(embedded: Bool) -> Response {
        BrowserResponse.page(
            .forbidden,
            PaymentPage.problem(
                title: "This form belongs to another payment",
                message: "The form was not made for this checkout session, so nothing was paid. Reload the payment page and try again.",
                embedded: embedded
            ),
            framing: embedded ? .anyOrigin : .denied
        )
    }

    func page(_ model: PaymentPageModel, status: HTTPResponse.Status = .ok, embedded: Bool) -> Response {
        BrowserResponse.page(status, PaymentPage.render(model), framing: embedded ? .anyOrigin : .denied)
    }
}
