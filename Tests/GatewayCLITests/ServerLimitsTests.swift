import BlockingWork
import Foundation
import Testing

/// What one client may take of the server, each limit against the real binary over real sockets.
@Suite("Server limits", .blocksThreads)
struct ServerLimitsTests {
    static let authorization =
        "Basic " + Data("merchant.TESTMERCHANT:00112233445566778899aabbccddeeff".utf8).base64EncodedString()

    static func store() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString).sqlite")
    }

    static func put(order: String, body: String) -> String {
        "PUT /api/rest/version/100/merchant/TESTMERCHANT/order/\(order)/transaction/1 HTTP/1.1\r\nHost: localhost\r\n"
            + "Authorization: \(authorization)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            + body
    }

    static let health = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"

    @Test("a body over server.maxBodyBytes gets 413; one under it is processed")
    func bodyCap() async throws {
        let server = try await RunningGateway(store: Self.store(), environment: ["GATEWAY_SERVER_MAX_BODY_BYTES": "2048"])
        defer { server.process.terminate() }
        let card = #""sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}"#
        let small =
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD","reference":"\#(String(repeating: "a", count: 1700))"},\#(card)}"#
        let large =
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD","reference":"\#(String(repeating: "a", count: 2100))"},\#(card)}"#
        let tooLarge = try RawConnection(port: server.port)
        tooLarge.send(Self.put(order: "big", body: large))
        let refused = tooLarge.receive(timeout: .seconds(5)).text
        #expect(refused.hasPrefix("HTTP/1.1 413"))
        #expect(refused.contains(#""cause":"INVALID_REQUEST""#))
        let fits = try RawConnection(port: server.port)
        fits.send(Self.put(order: "small", body: small))
        #expect(!fits.receive(timeout: .seconds(5)).text.hasPrefix("HTTP/1.1 413"))
    }

    @Test("a client sending Expect: 100-continue gets 100 Continue at once, then its response")
    func expectContinue() async throws {
        let server = try await RunningGateway(store: Self.store())
        defer { server.process.terminate() }
        let body =
            #"{"apiOperation":"PAY","order":{"amount":"1.00","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
        let request = Self.put(order: "expect", body: body)
        let head = request.replacingOccurrences(of: "\r\n\r\n" + body, with: "\r\nExpect: 100-continue\r\n\r\n")
        let connection = try RawConnection(port: server.port)
        connection.send(head)
        #expect(connection.receive(timeout: .milliseconds(500)).text.hasPrefix("HTTP/1.1 100 Continue"))
        connection.send(body)
        #expect(connection.receive(timeout: .seconds(5)).text.hasPrefix("HTTP/1.1 201"))
    }

    @Test("a connection that sends nothing is closed after server.idleTimeoutSeconds")
    func idleTimeout() async throws {
        let server = try await RunningGateway(store: Self.store(), environment: ["GATEWAY_SERVER_IDLE_TIMEOUT_SECONDS": "1"])
        defer { server.process.terminate() }
        let silent = try RawConnection(port: server.port)
        let start = ContinuousClock.now
        #expect(silent.receive(timeout: .seconds(5)).closed)
        #expect(ContinuousClock.now - start < .seconds(4))

        // A kept-alive connection, idle after its response, is closed too.
        let keptAlive = try RawConnection(port: server.port)
        keptAlive.send(Self.health)
        #expect(keptAlive.receive(timeout: .seconds(5)).text.hasPrefix("HTTP/1.1 200"))
        #expect(keptAlive.receive(timeout: .seconds(5)).closed)
    }

    @Test("a client trickling its headers is cut off after server.headerTimeoutSeconds, however often it sends")
    func headerTimeout() async throws {
        let server = try await RunningGateway(
            store: Self.store(),
            environment: ["GATEWAY_SERVER_HEADER_TIMEOUT_SECONDS": "1", "GATEWAY_SERVER_IDLE_TIMEOUT_SECONDS": "30"]
        )
        defer { server.process.terminate() }
        let slow = try RawConnection(port: server.port)
        let start = ContinuousClock.now
        var closed = !slow.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        // One header line every 200 ms: the idle timeout (30 s) never fires, the head deadline does.
        while !closed, ContinuousClock.now - start < .seconds(6) {
            closed = slow.receive(timeout: .milliseconds(200)).closed || !slow.send("X-Slow: 1\r\n")
        }
        #expect(closed)
        #expect(ContinuousClock.now - start < .seconds(3))

        // A client that sends its head at once, then idles for longer than the head timeout, is served.
        let prompt = try RawConnection(port: server.port)
        // Silent for longer than the 1 s head timeout: it counts from a head's first byte.
        try await Task.sleep(for: .milliseconds(1500))
        let sent = prompt.send(Self.health)
        let answer = prompt.receive(timeout: .seconds(5))
        #expect(
            answer.text.hasPrefix("HTTP/1.1 200"),
            "sent: \(sent), closed: \(answer.closed), errno: \(prompt.lastError), log: \(server.output.suffix(1500))"
        )
    }

    @Test("past server.maxConnections a new connection waits while the others are mid-request, until one closes")
    func connectionCap() async throws {
        let server = try await RunningGateway(store: Self.store(), environment: ["GATEWAY_SERVER_MAX_CONNECTIONS": "2"])
        defer { server.process.terminate() }
        let first = try RawConnection(port: server.port)
        let second = try RawConnection(port: server.port)
        // Mid-request (heads not finished): they keep their slots. (Idle keep-alive connections
        // would give theirs up: SlotHoggingTests.)
        first.send("GET /healthz HTTP/1.1\r\n")
        second.send("GET /healthz HTTP/1.1\r\n")
        #expect(first.receive(timeout: .milliseconds(300)).text.isEmpty)

        // The kernel completes the handshake (backlog), but the server does not accept it yet.
        let third = try RawConnection(port: server.port)
        third.send(Self.health)
        #expect(third.receive(timeout: .seconds(1)).text.isEmpty)

        // One closes: the waiting connection is accepted and answered.
        first.close()
        #expect(third.receive(timeout: .seconds(5)).text.hasPrefix("HTTP/1.1 200"))
    }
}
