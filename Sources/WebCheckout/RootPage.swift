import Hummingbird

/// `GET /`: a pointer for whoever opens the gateway's address in a browser, rather than a JSON
/// 404: where the API, the console, the health checks and the documentation are.
package enum RootPage {
    package static func response(sandbox: Bool) -> Response {
        BrowserResponse.page(
            .ok,
            """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Apple Pay gateway</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body><main>
            <h1>Apple Pay gateway\(sandbox ? " (sandbox)" : "")</h1>
            <p>A Mastercard-Gateway-style payment API. Merchant servers call it; people use the console.</p>
            <ul>
            <li>The API: <code>/api/rest/version/100/merchant/{merchantId}/...</code>
            (<a href="/api/rest/version/100/information">/api/rest/version/100/information</a>)</li>
            <li>Merchant Administration: <a href="/ma/">/ma/</a></li>
            <li>Health: <a href="/healthz">/healthz</a>, readiness: <a href="/readyz">/readyz</a></li>
            <li>Documentation: <code>README.md</code>, <code>Deploy/INTEGRATION.md</code> and the guides in
            <code>Deploy/docs/</code> of the repository; every endpoint is in <code>openapi.yaml</code>.</li>
            </ul>
            </main></body></html>
            """
        )
    }
}
