import BlockingWork
import Foundation
import Testing

/// The gateway's own HTTP/2 serving (streams handled on the connection, no child channel per
/// stream): flow control, the body limit, idleness and shutdown, through curl and raw frames.
@Suite("HTTP/2 streams on a live gateway", .blocksThreads)
struct HTTP2ServeTests {
    typealias Sandbox = HTTPSServeTests.Sandbox

    /// A PAY body padded with `padding` spaces: JSON allows whitespace between its members.
    static func paddedPay(_ padding: Int) -> Data {
        Data(
            (#"{"apiOperation":"PAY","order":{"amount":"56.56","currency":"USD"},"#
                + String(repeating: " ", count: padding)
                + #""sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#)
                .utf8
        )
    }

    @Test("bodies larger than HTTP/2's first flow-control windows arrive whole; one over server.maxBodyBytes gets 413 with an MPGS body")
    func flowControlAndBodyLimit() async throws {
        let sandbox = try await Sandbox.start(environment: ["GATEWAY_SERVER_MAX_BODY_BYTES": "400000"])
        defer { sandbox.stop() }
        let password = ["-u", "merchant.TESTMERCHANT:\(HTTPSServeTests.password)", "-H", "Content-Type: application/json"]
        /// A PAY over HTTP/2 whose body has `padding` spaces in it.
        func pay(order: String, padding: Int) throws -> (body: String, version: String, status: Int) {
            let file = sandbox.folder.appendingPathComponent("\(order).json")
            try Self.paddedPay(padding).write(to: file)
            return try HTTPSServeTests.curl(
                ["--http2", "--cacert", sandbox.ca, "-X", "PUT", "--data-binary", "@" + file.path] + password
                    + [sandbox.url("/merchant/TESTMERCHANT/order/\(order)/transaction/1")]
            )
        }
        // 300 KB: more than four times the 65,535-byte windows of the stream and the connection.
        let paid = try pay(order: "large-body", padding: 300_000)
        #expect(paid.version == "2" && paid.status == 201, "\(paid.body.prefix(300))")
        #expect(paid.body.contains("\"gatewayCode\":\"APPROVED\""))

        // Over the limit: refused as soon as the limit is passed, with the gateway's body, and
        // nothing is processed.
        let refused = try pay(order: "too-large", padding: 500_000)
        #expect(refused.version == "2" && refused.status == 413, "\(refused.body.prefix(300))")
        #expect(refused.body.contains(#""cause":"INVALID_REQUEST""#))
        let nothing = try HTTPSServeTests.curl(
            ["--http2", "--cacert", sandbox.ca] + password + [sandbox.url("/merchant/TESTMERCHANT/order/too-large")]
        )
        #expect(nothing.status == 404)
    }

    /// Raw HTTP/2 over TLS in Python (HPACK literals without Huffman), for what curl cannot show:
    /// the frames the gateway sends and when the connection ends.
    static let frames = """
        import os, signal, socket, ssl, struct, sys, time
        context = ssl.create_default_context(cafile=sys.argv[2])
        context.set_alpn_protocols(["h2"])
        s = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1]))), server_hostname="localhost")
        assert s.selected_alpn_protocol() == "h2"
        def frame(kind, flags, stream, payload=b""):
            return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload
        def literal(name, value):
            return bytes([0, len(name)]) + name + bytes([len(value)]) + value
        def request(stream, path, method=b"GET", extra=b"", end=True):
            # HEADERS with END_HEADERS, and END_STREAM unless a body is to follow.
            return frame(1, 5 if end else 4, stream, literal(b":method", method) + literal(b":scheme", b"https")
                         + literal(b":path", path) + literal(b":authority", b"localhost") + extra)
        s.sendall(b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" + frame(4, 0, 0))
        buffer = b""
        def frames_until(done, limit):
            # Reads frames (acknowledging SETTINGS) until done(kind, flags, stream, payload) or EOF.
            global buffer
            start = time.time()
            s.settimeout(limit)
            while time.time() - start < limit:
                while len(buffer) >= 9 and len(buffer) >= 9 + int.from_bytes(buffer[:3], "big"):
                    length = int.from_bytes(buffer[:3], "big")
                    kind, flags = buffer[3], buffer[4]
                    stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
                    payload, buffer = buffer[9:9 + length], buffer[9 + length:]
                    if kind == 4 and not flags & 1:
                        s.sendall(frame(4, 1, 0))
                    if done(kind, flags, stream, payload):
                        return "frame", time.time() - start
                try:
                    chunk = s.recv(65536)
                except (socket.timeout, ssl.SSLError, ConnectionError):
                    return "timeout", time.time() - start
                if not chunk:
                    return "closed", time.time() - start
                buffer += chunk
            return "timeout", time.time() - start

        """

    @Test("an HTTP/2 stream that never finishes its request is reset after the head and body times; its connection serves on")
    func slowStream() async throws {
        let sandbox = try await Sandbox.start(environment: [
            "GATEWAY_SERVER_HEADER_TIMEOUT_SECONDS": "1", "GATEWAY_SERVER_BODY_TIMEOUT_SECONDS": "1",
        ])
        defer { sandbox.stop() }
        // Stream 1 sends a head promising a body and no body; stream 3, after stream 1 is reset,
        // asks /information on the same connection.
        let script =
            Self.frames + """
                s.sendall(request(1, b"/api/rest/version/100/merchant/TESTMERCHANT/order/o/transaction/1", b"PUT",
                                  literal(b"content-length", b"100"), end=False))
                outcome, seconds = frames_until(lambda kind, flags, stream, p: kind == 3 and stream == 1, 10)
                print("reset", outcome, round(seconds))
                s.sendall(request(3, b"/api/rest/version/100/information"))
                print("answered", frames_until(lambda kind, flags, stream, p: kind == 1 and stream == 3, 5)[0])
                """
        let run = try HTTPSServeTests.tool("/usr/bin/env", ["python3", "-c", script, "\(sandbox.gateway.port)", sandbox.ca])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "answered frame", "\(run.stdout) \(run.stderr)")
        let words = lines.first?.split(separator: " ") ?? []
        #expect(words.count == 3 && words[1] == "frame", "\(run.stdout)")
        #expect((1...4).contains(Int(words.last ?? "") ?? 99), "\(run.stdout)")
    }

    @Test("an HTTP/2 connection without streams gets GOAWAY and is closed after server.idleTimeoutSeconds")
    func idleConnection() async throws {
        let sandbox = try await Sandbox.start(environment: ["GATEWAY_SERVER_IDLE_TIMEOUT_SECONDS": "1"])
        defer { sandbox.stop() }
        let script =
            Self.frames + """
                s.sendall(request(1, b"/api/rest/version/100/information"))
                print("answered", frames_until(lambda kind, flags, stream, p: kind == 0 and stream == 1 and flags & 1, 5)[0])
                outcome, seconds = frames_until(lambda kind, flags, stream, p: kind == 7, 10)
                print("goaway", outcome, round(seconds))
                print("then", frames_until(lambda *frame: False, 10)[0])
                """
        let run = try HTTPSServeTests.tool("/usr/bin/env", ["python3", "-c", script, "\(sandbox.gateway.port)", sandbox.ca])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "answered frame", "\(run.stdout) \(run.stderr)")
        #expect(lines.count == 3 && lines[2] == "then closed", "\(run.stdout)")
        let words = lines.count == 3 ? lines[1].split(separator: " ") : []
        #expect(words.count == 3 && words[1] == "frame", "\(run.stdout)")
        #expect((0...3).contains(Int(words.last ?? "") ?? 99), "\(run.stdout)")
    }

    @Test("on SIGTERM an HTTP/2 connection gets GOAWAY with NO_ERROR and the gateway exits within seconds")
    func gracefulShutdown() async throws {
        let sandbox = try await Sandbox.start()
        defer { sandbox.stop() }
        let script =
            Self.frames + """
                s.sendall(request(1, b"/api/rest/version/100/information"))
                print("answered", frames_until(lambda kind, flags, stream, p: kind == 0 and stream == 1 and flags & 1, 5)[0])
                os.kill(int(sys.argv[3]), signal.SIGTERM)
                goaway = []
                outcome, seconds = frames_until(lambda kind, flags, stream, p: kind == 7 and not goaway.append(p), 10)
                code = int.from_bytes(goaway[0][4:8], "big") if goaway else None
                last = int.from_bytes(goaway[0][:4], "big") & 0x7FFFFFFF if goaway else None
                print("goaway", outcome, code, last)
                print("then", frames_until(lambda *frame: False, 10)[0])
                """
        let run = try HTTPSServeTests.tool(
            "/usr/bin/env",
            ["python3", "-c", script, "\(sandbox.gateway.port)", sandbox.ca, "\(sandbox.gateway.process.processIdentifier)"]
        )
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines == ["answered frame", "goaway frame 0 1", "then closed"], "\(run.stdout) \(run.stderr)")
        // NIOSSL waits up to 1 s (the gateway's TLS shutdown timeout) for a close_notify Python never sends.
        let exited = ContinuousClock.now + .seconds(3)
        while sandbox.gateway.process.isRunning, ContinuousClock.now < exited {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!sandbox.gateway.process.isRunning)
    }
}
