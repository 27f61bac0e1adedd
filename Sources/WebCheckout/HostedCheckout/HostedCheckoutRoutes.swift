import ApplePaySandbox
import Foundation
import GatewayCore
import GatewayHTTP
import HTTPTypes
import Hummingbird
import Logging
import MPGSAPI
import NIOCore
import WireJSON

/// Hosted Checkout in the browser: the scripts merchant pages load, the endpoint they show the
/// payment page through, and the page itself (card form, 3-D Secure, Apple Pay, cancel). The
/// session id is the payer's only credential; every form the page posts also carries the
/// session's form token. Nothing here logs the session id or what the payer typed.
///
/// - `GET /static/checkout/checkout.min.js`, `GET /checkout/version/{v}/checkout.js`
/// - `GET /checkout/api/retrieveWsapiVersion/{sessionId}`
/// - `POST /api/page/version/{v}/pay`: the script (or a plain form) asks for the page
/// - `GET /checkout/pay/{sessionId}`, `GET /checkout/embedded/{sessionId}`: the page
/// - `POST /checkout/pay/{sessionId}[/authenticated|/cancel]`: the card form, the ACS's return, Cancel
/// - `POST /checkout/applepay/{sessionId}/validate|pay`: Apple Pay on the page (sandbox)
/// - `POST /checkout/googlepay/{sessionId}/pay`: Google Pay on the page (sandbox)
package struct HostedCheckoutRoutes: Sendable {
    let payments: HostedCheckoutPayments
    /// The sandbox's Apple Pay (merchant sessions it signs, its sheet's script); nil in production.
    let sandboxApplePay: SandboxApplePayRoutes?
    /// The sandbox's Google Pay (its sheet's script and tokens); nil in production.
    let sandboxGooglePay: SandboxGooglePayRoutes?
    let maxBodyBytes: Int

    package init(
        payments: HostedCheckoutPayments,
        sandboxApplePay: SandboxApplePayRoutes?,
        sandboxGooglePay: SandboxGooglePayRoutes? = nil,
        maxBodyBytes: Int
    ) {
        self.payments = payments
        self.sandboxApplePay = sandboxApplePay
        self.sandboxGooglePay = sandboxGooglePay
        self.maxBodyBytes = maxBodyBytes
    }

    package func register(on router: Router<GatewayRequestContext>) {
        registerScripts(on: router)
        registerShowPage(on: router)
        registerPage(on: router)
        registerApplePay(on: router)
        registerGooglePay(on: router)
    }

    private func registerScripts(on router: Router<GatewayRequestContext>) {
        for path in [
            "/static/checkout/checkout.min.js", "/checkout/version/:version/checkout.js", "/checkout/assets/page.js",
            "/checkout/assets/page.css", "/checkout/api/retrieveWsapiVersion/:sessionId",
        ] {
            router.refuseMethods(except: [.get], on: RouterPath(path))
        }
        router.get("/static/checkout/checkout.min.js") { _, _ in BrowserResponse.script(CheckoutScript.source(legacyVersion: nil)) }
        router.get("/checkout/version/:version/checkout.js") { _, context in
            guard let text = context.parameters.get("version"), let version = APIVersion(text) else {
                return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"])
            }
            return BrowserResponse.script(CheckoutScript.source(legacyVersion: version.number))
        }
        router.get("/checkout/assets/page.js") { _, _ in BrowserResponse.script(PaymentPageAssets.script) }
        router.get("/checkout/assets/page.css") { _, _ in BrowserResponse.stylesheet(PaymentPageAssets.style) }
        router.get("/checkout/api/retrieveWsapiVersion/:sessionId") { _, context in
            var response: Response
            if let checkout = try await payments.open(context.parameters.get("sessionId") ?? "") {
                response = BrowserResponse.json(.ok, .object(["wsapiVersion": .string(String(checkout.settings.apiVersion))]))
            } else {
                response = BrowserResponse.json(.notFound, GatewayError.unknownCheckoutSession.body)
            }
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
    }

    /// The request body, or nil past the limit or when the request cannot be framed.
    func body(_ request: Request) async -> [UInt8]? {
        try? await RequestBytes.collect(request, limit: maxBodyBytes)
    }

    /// The gateway's own address as the payer's browser reaches it (the API's own rule).
    static func origin(_ request: Request) -> String { GatewayRoutes.browserOrigin(request) }
}
