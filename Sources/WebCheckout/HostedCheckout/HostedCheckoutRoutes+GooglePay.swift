import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import MPGSAPI
import WireJSON

/// Google Pay on the full payment page (sandbox): the page's `loadPaymentData` resolves with
/// Google's `PaymentData`, whose token the page posts here to pay through the API's
/// device-payment path, as Apple Pay's does.
extension HostedCheckoutRoutes {
    func registerGooglePay(on router: Router<GatewayRequestContext>) {
        router.post("/checkout/googlepay/:sessionId/pay") { request, context in
            await walletRequest(request, context) { checkout, fields in try await payWithGooglePay(checkout, fields, context) }
        }
        router.refuseMethods(except: [.post], on: "/checkout/googlepay/:sessionId/pay")
    }

    private func payWithGooglePay(
        _ checkout: HostedCheckoutPayments.Checkout,
        _ fields: JSONValue,
        _ context: GatewayRequestContext
    ) async throws -> JSONValue {
        guard sandboxGooglePay != nil, checkout.merchant.googlePay != nil else {
            throw GatewayError.invalidBrowserRequest(nil, "Google Pay is not available for this merchant")
        }
        guard let token = fields["paymentData"]?["paymentMethodData"]?["tokenizationData"]?["token"]?.stringValue else {
            throw GatewayError.invalidBrowserRequest(
                "paymentData.paymentMethodData.tokenizationData.token",
                "Missing parameter 'paymentData': the PaymentData loadPaymentData resolved with"
            )
        }
        let outcome = try await payments.payWithGooglePay(checkout, paymentToken: token, logger: context.logger)
        return walletAnswer(outcome, checkout, wallet: "Google Pay")
    }

    /// Google Pay is offered on the full page when the sandbox's Google Pay runs here and the
    /// merchant has Google Pay keys: the sheet mints a token for the checkout's merchant.
    func googlePayOffer(_ checkout: HostedCheckoutPayments.Checkout) -> GooglePayOffer? {
        guard sandboxGooglePay != nil, let recipient = checkout.merchant.googlePay, let amount = checkout.amount,
            let currency = checkout.currency
        else { return nil }
        return GooglePayOffer(
            gateway: SandboxGooglePayRoutes.gatewayId(of: recipient) ?? SandboxGooglePayRoutes.publishedGatewayId,
            gatewayMerchantId: checkout.merchant.id,
            merchantName: displayName(checkout),
            currencyCode: currency,
            totalPrice: amount,
            scriptPath: SandboxGooglePayRoutes.scriptPath
        )
    }
}
