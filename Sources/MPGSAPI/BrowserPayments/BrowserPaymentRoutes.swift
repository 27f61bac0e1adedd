import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging

/// The sandbox PayPal page, served by the gateway itself (sandbox mode only), issue 64.
/// `GET /browserPayment/paypal` shows the payment the sealed interaction describes;
/// `POST /browserPayment/paypal/decision` records the payer's one-time decision as the
/// transaction INITIATE_BROWSER_PAYMENT named, and sends the browser to the merchant's
/// `returnUrl` with `orderId` and `transactionId` added [ours: the reference's return names them
/// no clearer than the merchant's own URL can].
package struct BrowserPaymentRoutes: Sendable {
    let processor: BrowserPaymentProcessor
    let merchants: [String: Merchant]
    let cipher: SessionCipher?
    let maxBodyBytes: Int

    package init(
        processor: BrowserPaymentProcessor,
        authentication: MerchantAuthentication,
        sessions: SessionService,
        maxBodyBytes: Int
    ) {
        self.processor = processor
        self.merchants = authentication.merchants
        self.cipher = sessions.cipher
        self.maxBodyBytes = maxBodyBytes
    }

    static let providerPath = "/browserPayment/paypal"
    static let decisionPath = "/browserPayment/paypal/decision"

    package func register(on router: Router<GatewayRequestContext>) {
        router.get(RouterPath(Self.providerPath)) { request, _ in try await show(request) }
        router.post(RouterPath(Self.decisionPath)) { request, context in try await decide(request, logger: context.logger) }
        router.refuseMethods(except: [.get], on: RouterPath(Self.providerPath))
        router.refuseMethods(except: [.post], on: RouterPath(Self.decisionPath))
    }

    private func show(_ request: Request) async throws -> Response {
        guard let sealed = request.uri.queryParameters.get("interaction"), let interaction = open(sealed) else {
            return Self.unknown
        }
        let amount = interaction.request.amount
        return ACSRoutes.html(
            .ok,
            BrowserPaymentPage.decision(
                sealed,
                merchant: interaction.merchantId,
                amount: "\(amount.text) \(amount.currency.code)",
                reference: interaction.request.orderReference,
                confirmAtMerchant: interaction.request.confirmation == .atMerchant
            )
        )
    }

    private func decide(_ request: Request, logger: Logger) async throws -> Response {
        let form = FormBody.parse(try await GatewayRoutes.body(of: request, limit: maxBodyBytes)) ?? [:]
        guard let sealed = form["interaction"], let interaction = open(sealed), let merchant = merchants[interaction.merchantId] else {
            return Self.unknown
        }
        guard let decision = form["decision"].flatMap(PayerDecision.init(rawValue:)) else {
            return ACSRoutes.html(.badRequest, BrowserPaymentPage.problem("Approve or cancel the payment."))
        }
        var payment = interaction.request
        payment.echo = interaction.echo(returnedAt: processor.now())
        let context = TransactionContext(
            merchant: merchant,
            orderId: interaction.orderId,
            transactionId: interaction.transactionId,
            version: interaction.version,
            fingerprint: RequestFingerprint(value: interaction.requestHash, legacyValue: { [] }),
            encoding: MPGSResponseEncoder()
        )
        do {
            _ = try await processor.decide(payment, decision, context, logger: logger)
        } catch let rejection as PaymentRejection {
            logger.notice("browser payment decision refused", metadata: ["orderId": "\(interaction.orderId)", "reason": "\(rejection)"])
            return ACSRoutes.html(
                .conflict,
                BrowserPaymentPage.problem("This order cannot take this payment any more. Return to the merchant and start again.")
            )
        }
        return ACSRoutes.html(.ok, BrowserPaymentPage.returnToMerchant(Self.returnURL(interaction)))
    }

    /// The merchant's `returnUrl` with the order and transaction ids added to its query.
    static func returnURL(_ interaction: BrowserPaymentInteraction) -> String {
        guard var components = URLComponents(string: interaction.request.returnURL) else { return interaction.request.returnURL }
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "orderId", value: interaction.orderId),
                URLQueryItem(name: "transactionId", value: interaction.transactionId),
            ]
        return components.string ?? interaction.request.returnURL
    }

    private func open(_ sealed: String) -> BrowserPaymentInteraction? {
        guard let cipher else { return nil }
        return BrowserPaymentInteraction.open(sealed, with: cipher)
    }

    private static var unknown: Response {
        ACSRoutes.html(.notFound, BrowserPaymentPage.problem("This payment is unknown. Start again from the merchant's page."))
    }
}
