import GatewayCore
import GatewayHTTP
import Hummingbird

/// Hosted Session in the browser: `session.js` for the merchant's page, the field iframes it
/// makes, and their script. The card goes into the session through Update Session with the
/// session credential, from the iframes, on the gateway's origin.
///
/// - `GET /form/version/{v}/merchant/{m}/session.js`
/// - `GET /form/version/{v}/merchant/{m}/field/{field}` (`number`, `securityCode`, `expiryMonth`,
///   `expiryYear`, `nameOnCard`): one field, frameable by any origin
/// - `GET /form/assets/field.js`
package struct HostedSessionRoutes: Sendable {
    package init() {}

    package func register(on router: Router<GatewayRequestContext>) {
        let script: RouterPath = "/form/version/:version/merchant/:merchantId/session.js"
        router.get(script) { _, context in
            guard let version = APIVersion(context.parameters.get("version") ?? "") else { return Self.notFound }
            return BrowserResponse.script(SessionScript.source(version: version.number, merchantId: context.parameters.get("merchantId") ?? ""))
        }
        let field: RouterPath = "/form/version/:version/merchant/:merchantId/field/:field"
        router.get(field) { _, context in
            guard APIVersion(context.parameters.get("version") ?? "") != nil,
                let html = HostedFieldPage.html(field: context.parameters.get("field") ?? "")
            else { return Self.notFound }
            return BrowserResponse.page(.ok, html, framing: .anyOrigin)
        }
        let asset: RouterPath = "/form/assets/field.js"
        router.get(asset) { _, _ in BrowserResponse.script(HostedFieldPage.script) }
        for path in [script, field, asset] { router.refuseMethods(except: [.get], on: path) }
    }

    private static var notFound: Response {
        Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"])
    }
}
