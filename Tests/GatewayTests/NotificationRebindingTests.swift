import AsyncHTTPClient
import BlockingWork
import Foundation
import Testing

@testable import Gateway
@testable import GatewayNotifications

/// Issue 59, finding 4: a name that answers a public address to the check and 127.0.0.1 to the
/// connection. The attempt resolves once and connects to the address it checked, under the
/// name (Host header, TLS server name), and follows no redirect: seen from real sockets.
@Suite("Notification rebinding", .blocksThreads)
struct NotificationRebindingTests {
    /// A documentation address (RFC 5737): public by the rules, and nothing answers there.
    static let publicAddress = IPAddress.v4([198, 51, 100, 7])

    /// Short timeouts where a connection may go nowhere; a loopback receiver that is listening gets
    /// `patient` ones, since a loaded machine can starve the client's event loop past one second.
    static func sender(production: Bool, resolver: any HostResolver, patient: Bool = false) -> NotificationSender {
        var settings = NotificationSettings()
        settings.connectTimeoutSeconds = patient ? 30 : 1
        settings.timeoutSeconds = patient ? 30 : 2
        return NotificationSender(settings: settings, production: production, resolver: resolver)
    }

    static func post(_ sender: NotificationSender, _ url: String) async -> NotificationDelivery.Outcome {
        do {
            let checked = try await sender.check(url)
            return await sender.post(checked, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        } catch let refusal as NotificationTargetRefusal {
            return .failed(refusal.cause)
        } catch {
            return .failed("resolver")
        }
    }

    @Test("a rebinding name never reaches the local port: one lookup per attempt, the connection to the address checked")
    func rebindingNeverReachesLoopback() async throws {
        let local = try CountingListener(response: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { local.stop() }
        // `localhost`: any lookup but the scripted one (the HTTP client's own) answers 127.0.0.1,
        // where the listener waits.
        for attempt in 1...4 {
            let resolver = ScriptedResolver([[Self.publicAddress], [.v4([127, 0, 0, 1])]])
            let sender = Self.sender(production: true, resolver: resolver)
            let outcome = await Self.post(sender, "https://localhost:\(local.port)/hook")
            await sender.shutdown()
            #expect(resolver.lookups == ["localhost"], "attempt \(attempt): one lookup, the one checked")
            if case .delivered = outcome { Issue.record("attempt \(attempt) was delivered") }
        }
        #expect(local.connections.count == 0, "the loopback listener was reached")
    }

    @Test("the pinned connection keeps the name: Host header over http, TLS server name over https")
    func pinnedKeepsTheName() async throws {
        let listener = try CountingListener(response: "HTTP/1.1 204 No Content\r\n\r\n")
        defer { listener.stop() }
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        let pinned = PinnedHTTPClients(configuration: configuration)
        // `notify.invalid` resolves nowhere (RFC 6761): only the pin can connect it.
        let status = await pinned.withClient(host: "notify.invalid", address: .v4([127, 0, 0, 1])) { client in
            try? await client.execute(HTTPClientRequest(url: "http://notify.invalid:\(listener.port)/hook"), timeout: .seconds(5)).status.code
        }
        #expect(status == 204)
        #expect(listener.text.lowercased().contains("host: notify.invalid:\(listener.port)\r\n"), "\(listener.text.prefix(300))")

        // Over TLS the ClientHello names the server in clear (SNI): the name, not the address.
        // The listener is no TLS server, so the attempt fails after the hello.
        _ = await pinned.withClient(host: "notify.invalid", address: .v4([127, 0, 0, 1])) { client in
            try? await client.execute(HTTPClientRequest(url: "https://notify.invalid:\(listener.port)/hook"), timeout: .seconds(5))
        }
        #expect(try await listener.waitForConnections(2))
        let hello = try #require(listener.connections.last)
        #expect(hello.first == 0x16, "a TLS handshake record")
        #expect(String(decoding: hello, as: UTF8.self).contains("notify.invalid"), "the server name is the URL's host")
        #expect(pinned.count == 1, "one client per (host, address)")
        await pinned.shutdown()
    }

    @Test("a redirect is not followed: a 302 to another local port is a failed attempt, and that port sees nothing")
    func redirectNotFollowed() async throws {
        let inner = try CountingListener(response: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { inner.stop() }
        let redirecting = try CountingListener(
            response: "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(inner.port)/internal\r\nContent-Length: 0\r\n\r\n"
        )
        defer { redirecting.stop() }
        let sender = Self.sender(production: false, resolver: SystemHostResolver(), patient: true)
        let outcome = await Self.post(sender, "http://127.0.0.1:\(redirecting.port)/hook")
        await sender.shutdown()
        guard case .failed(let cause, _, _) = outcome else {
            Issue.record("a redirect counted as delivered")
            return
        }
        #expect(cause == "http_3xx")
        #expect(redirecting.connections.count == 1)
        #expect(inner.connections.isEmpty)
    }
}
