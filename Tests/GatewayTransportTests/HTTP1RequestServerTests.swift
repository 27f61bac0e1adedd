import HTTPTypes
import Hummingbird
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing

@testable import GatewayTransport

/// The HTTP/1.1 request handler on its own, request parts in and response parts out on an
/// embedded channel, with a `serve` that records requests instead of running the router.
@Suite("HTTP/1.1 request server")
struct HTTP1RequestServerTests {
    final class Served {
        var requests: [HTTP1FullRequest] = []
        var server: NIOLoopBound<HTTP1RequestServer>?
    }

    let channel = EmbeddedChannel()
    let served = Served()

    init() throws {
        let served = served
        let handler = HTTP1RequestServer(maxBodyBytes: 100) { request, server in
            served.requests.append(request)
            served.server = server
        }
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }

    static func head(_ path: String = "/a", fields: HTTPFields = [:]) -> HTTPRequestPart {
        .head(HTTPRequest(method: .put, scheme: nil, authority: "x", path: path, headerFields: fields))
    }

    /// Parts that arrive in one read.
    func read(_ parts: HTTPRequestPart...) {
        // Not writeInbound: it ends a read after every part.
        for part in parts { channel.pipeline.fireChannelRead(part) }
        channel.pipeline.fireChannelReadComplete()
    }

    func answer(_ body: String = "{}") {
        served.server?.value.answer((HTTPResponse(status: .ok, headerFields: [.contentLength: "\(body.utf8.count)"]), ByteBuffer(string: body)))
    }

    func written() throws -> [HTTPResponsePart] {
        var parts: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
        return parts
    }

    static func text(_ body: RequestBody) async throws -> String {
        var request = Request(head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), body: body)
        return String(buffer: try await request.collectBody(upTo: 1000))
    }

    @Test("a request read whole in one read is handed on whole, answered with a date, and the next one follows")
    func wholeRequests() async throws {
        read(Self.head("/first"), .body(ByteBuffer(string: "ab")), .body(ByteBuffer(string: "c")), .end(nil), Self.head("/second"), .end(nil))
        #expect(served.requests.map(\.head.path) == ["/first"], "the second waits for the first's answer")
        #expect(try await Self.text(served.requests[0].body) == "abc")
        answer("one")
        let first = try written()
        guard case .head(let head) = first.first else {
            Issue.record("\(first)")
            return
        }
        #expect(head.headerFields[.date] != nil)
        #expect(first.count == 3)
        #expect(served.requests.map(\.head.path) == ["/first", "/second"])
        answer("two")
        #expect(try written().count == 3)
        #expect(channel.isActive)
    }

    @Test("a request whose end is not in the read is handed on at the read's end, its body streamed as it arrives")
    func streamedBody() async throws {
        read(Self.head(), .body(ByteBuffer(string: "12")))
        #expect(served.requests.count == 1, "in flight once the read ends")
        read(.body(ByteBuffer(string: "34")), .end(nil))
        #expect(try await Self.text(served.requests[0].body) == "1234")
    }

    @Test("a body over maxBodyBytes is handed on cut at the limit plus one byte; the rest of it is dropped")
    func bodyOverLimit() async throws {
        read(Self.head(), .body(ByteBuffer(repeating: 0x61, count: 150)), .end(nil), Self.head("/next"), .end(nil))
        #expect(served.requests.count == 1)
        let cut = try await Self.text(served.requests[0].body)
        #expect(cut.utf8.count == 101, "\(cut.utf8.count)")
        answer()
        #expect(served.requests.map(\.head.path) == ["/a", "/next"], "the over-limit request's end is not taken for another request")
    }

    @Test("Connection: close closes after the answer; a parse error outside a body gets a bare 400 and closes")
    func closing() throws {
        read(Self.head(fields: [.connection: "close"]), .end(nil))
        answer()
        #expect(try written().count == 3)
        #expect(!channel.isActive)

        let other = EmbeddedChannel()
        try other.pipeline.syncOperations.addHandler(HTTP1RequestServer(maxBodyBytes: 100) { _, _ in })
        try other.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        other.pipeline.fireErrorCaught(HTTPParserError.invalidMethod)
        let parts = try [other.readOutbound(as: HTTPResponsePart.self), other.readOutbound(as: HTTPResponsePart.self)]
        guard case .head(let head) = parts[0] else {
            Issue.record("\(parts)")
            return
        }
        #expect(head.status == .badRequest && head.headerFields[.connection] == "close")
        #expect(!other.isActive)
    }

    @Test("a parse error inside a body reaches the route as the body's failure, and the connection closes after the answer")
    func parseErrorInBody() async throws {
        read(Self.head(), .body(ByteBuffer(string: "12")))
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidChunkSize)
        await #expect(throws: HTTPParserError.self) { try await Self.text(served.requests[0].body) }
        answer()
        #expect(!channel.isActive)
    }

    @Test("reads go on while a request is answered alone, and stop once the next one arrives meanwhile")
    func readHeldWhileAnswering() throws {
        final class ReadCounter: ChannelOutboundHandler {
            typealias OutboundIn = Any
            var reads = 0
            func read(context: ChannelHandlerContext) {
                reads += 1
                context.read()
            }
        }
        let counter = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(counter, position: .first)
        read(Self.head(), .end(nil))
        channel.read()
        #expect(counter.reads == 1, "a client waiting for its answer is not held")
        read(Self.head("/b"), .end(nil))
        channel.read()
        #expect(counter.reads == 1, "the next request waits for the first's answer")
        #expect(served.requests.count == 1)
        answer()
        #expect(served.requests.map(\.head.path) == ["/a", "/b"], "the queued request goes on after the answer")
        #expect(counter.reads == 1, "held while the queued request is answered")
        answer()
        #expect(counter.reads == 2, "the held read goes on after the last answer")
    }
}
