import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway

/// Issue 62: the gateway's address opened in a browser points to the API, the console and the docs.
@Suite("GET /")
struct RootPageTests {
    @Test("a page with the console, the health checks and where the documentation is")
    func pointer() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let page = try await client.send("/", method: .get, authorization: nil)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.body.contains("href=\"/ma/\"") && page.body.contains("href=\"/healthz\""))
            #expect(page.body.contains("Deploy/docs/") && page.body.contains("(sandbox)"))
        }
    }
}
