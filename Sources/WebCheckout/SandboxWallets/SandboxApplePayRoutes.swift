import GatewayHTTP
import Hummingbird

/// The sandbox Apple Pay for the web: `/sandbox/applepay/apple-pay.js`, a drop-in
/// `ApplePaySession`, and the endpoints it and the merchant's server call. Sandbox mode only.
package struct SandboxApplePayRoutes: Sendable {
    package init() {}

    package func register(on router: Router<GatewayRequestContext>) {}
}
