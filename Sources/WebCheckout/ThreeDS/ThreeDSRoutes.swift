import GatewayHTTP
import Hummingbird

/// threeDS.js in the browser: the script (`/static/threeDS/{version}/three-ds.min.js`, the
/// reference's path is version 1.3.0) and its relay page on the gateway's origin.
package struct ThreeDSRoutes: Sendable {
    package init() {}

    package func register(on router: Router<GatewayRequestContext>) {
        let script: RouterPath = "/static/threeDS/:release/three-ds.min.js"
        router.get(script) { _, _ in BrowserResponse.script(ThreeDSScript.source) }
        let relayPage: RouterPath = "/static/threeDS/relay.html"
        router.get(relayPage) { _, _ in BrowserResponse.page(.ok, ThreeDSScript.relayPage, framing: .anyOrigin) }
        let relayScript: RouterPath = "/static/threeDS/relay.js"
        router.get(relayScript) { _, _ in BrowserResponse.script(ThreeDSScript.relay) }
        for path in [script, relayPage, relayScript] { router.refuseMethods(except: [.get], on: path) }
    }
}
