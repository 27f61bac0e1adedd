import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import GatewayTransport

/// The HTTP/2 stream handler on its own, frames in and frames out on an embedded channel, with a
/// `serve` that records requests instead of running the router: what a stream's request becomes,
/// and what the handler writes back, resets and closes, on a clock the test moves.
@Suite("HTTP/2 request streams")
struct HTTP2RequestStreamsTests {
    final class Served {
        var requests: [HTTP2StreamRequest] = []
        var streams: NIOLoopBound<HTTP2RequestStreams>?
    }

    let loop = EmbeddedEventLoop()
    let served = Served()
    let channel: EmbeddedChannel

    static let limits = HTTP2RequestStreams.Limits(
        requestTime: .seconds(10),
        idleTimeout: .seconds(60),
        gracefulCloseTimeout: .seconds(5),
        maxBodyBytes: 1000
    )

    init() throws {
        channel = EmbeddedChannel(loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let admission = ConnectionAdmission(maxConnections: 10, notices: ConnectionNotices(logger: LogCollector().logger))
        let served = served
        let handler = HTTP2RequestStreams(limits: Self.limits, admission: admission) { request, streams in
            served.requests.append(request)
            served.streams = streams
        }
        try channel.pipeline.syncOperations.addHandler(handler)
    }

    static func head(_ method: String = "PUT", path: String = "/api/rest/version/100/information") -> HPACKHeaders {
        [":method": method, ":scheme": "https", ":authority": "localhost", ":path": path, "content-type": "application/json"]
    }

    func send(_ stream: Int, _ payload: HTTP2Frame.FramePayload) throws {
        try channel.writeInbound(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: payload))
        channel.pipeline.fireChannelReadComplete()
    }

    /// Every frame written and flushed so far.
    func written() throws -> [HTTP2Frame] {
        loop.run()
        var frames: [HTTP2Frame] = []
        while let frame = try channel.readOutbound(as: HTTP2Frame.self) { frames.append(frame) }
        return frames
    }

    func answer(_ stream: Int, status: HTTPResponse.Status = .ok, body: String = "{}") {
        served.streams?.value.answer(
            HTTP2StreamID(stream),
            head: HTTPResponse(status: status, headerFields: [.contentType: "application/json", .connection: "close"]),
            body: ByteBuffer(string: body)
        )
    }

    @Test("a request's head and body reach serve whole; its answer goes out as HEADERS and DATA without connection fields")
    func requestAndAnswer() throws {
        try send(1, .headers(.init(headers: Self.head())))
        try send(1, .data(.init(data: .byteBuffer(ByteBuffer(string: "{\"a\":")))))
        #expect(served.requests.isEmpty, "the request is not complete yet")
        try send(1, .data(.init(data: .byteBuffer(ByteBuffer(string: "1}")), endStream: true)))
        let request = try #require(served.requests.first)
        #expect(request.head.method == .put && request.head.path == "/api/rest/version/100/information")
        #expect(request.head.authority == "localhost" && request.head.headerFields[.contentType] == "application/json")
        #expect(String(buffer: request.body) == "{\"a\":1}")

        answer(1, status: .created, body: "{\"result\":\"SUCCESS\"}")
        let frames = try written()
        #expect(frames.count == 2)
        guard frames.count == 2, case .headers(let headers) = frames[0].payload, case .data(let data) = frames[1].payload else {
            Issue.record("expected HEADERS then DATA: \(frames)")
            return
        }
        #expect(headers.headers[":status"] == ["201"] && !headers.endStream)
        #expect(headers.headers["connection"].isEmpty, "HTTP/2 forbids connection-specific fields")
        #expect(headers.headers["date"].count == 1)
        #expect(data.endStream)
        if case .byteBuffer(let bytes) = data.data { #expect(String(buffer: bytes) == "{\"result\":\"SUCCESS\"}") }
    }

    @Test("a body over maxBodyBytes is handed on cut at the limit plus one byte; after the answer the stream is reset with NO_ERROR")
    func bodyOverLimit() throws {
        try send(3, .headers(.init(headers: Self.head())))
        try send(3, .data(.init(data: .byteBuffer(ByteBuffer(repeating: 0x20, count: 1500)))))
        let request = try #require(served.requests.first)
        #expect(request.body.readableBytes == 1001)
        // More of the body changes nothing.
        try send(3, .data(.init(data: .byteBuffer(ByteBuffer(repeating: 0x20, count: 500)))))
        #expect(served.requests.count == 1)

        answer(3, status: .contentTooLarge, body: "{\"error\":{}}")
        let frames = try written()
        #expect(frames.map(\.payload.kind) == ["headers", "data", "rstStream(noError)"], "\(frames)")
    }

    @Test("a request not complete within the request time is reset with CANCEL; one that arrives whole arms no timer")
    func requestDeadline() throws {
        try send(1, .headers(.init(headers: Self.head("GET"), endStream: true)))
        try send(3, .headers(.init(headers: Self.head())))
        loop.advanceTime(by: .seconds(9))
        #expect(try written().isEmpty)
        loop.advanceTime(by: .seconds(1))
        let frames = try written()
        #expect(frames.map(\.payload.kind) == ["rstStream(cancel)"] && frames.first?.streamID == HTTP2StreamID(3))
        // The complete request is still answered.
        answer(1)
        #expect(try written().map(\.streamID) == [HTTP2StreamID(1), HTTP2StreamID(1)])
    }

    @Test("the client's windows are topped up when they fall below half, for the connection and a stream still sending")
    func windowRefill() throws {
        try send(1, .headers(.init(headers: Self.head())))
        channel.pipeline.fireUserInboundEventTriggered(
            NIOHTTP2WindowUpdatedEvent(streamID: .rootStream, inboundWindowSize: 20_000, outboundWindowSize: 65_535)
        )
        channel.pipeline.fireUserInboundEventTriggered(
            NIOHTTP2WindowUpdatedEvent(streamID: HTTP2StreamID(1), inboundWindowSize: 40_000, outboundWindowSize: 65_535)
        )
        channel.pipeline.fireUserInboundEventTriggered(
            NIOHTTP2WindowUpdatedEvent(streamID: HTTP2StreamID(1), inboundWindowSize: 30_000, outboundWindowSize: 65_535)
        )
        let frames = try written()
        #expect(frames.map(\.payload.kind) == ["windowUpdate(45535)", "windowUpdate(35535)"], "\(frames)")
        #expect(frames.map(\.streamID) == [.rootStream, HTTP2StreamID(1)])
    }

    @Test("a stream the client resets while its answer is computed gets no answer")
    func resetWhileAnswering() throws {
        try send(1, .headers(.init(headers: Self.head("GET"), endStream: true)))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: HTTP2StreamID(1), reason: .cancel))
        answer(1)
        #expect(try written().isEmpty)
    }

    @Test("a request head the HTTP types cannot hold resets its stream with PROTOCOL_ERROR")
    func malformedHead() throws {
        try send(1, .headers(.init(headers: [":method": "G E T", ":scheme": "https", ":path": "/"], endStream: true)))
        try send(3, .headers(.init(headers: [":method": "GET", ":scheme": "https"], endStream: true)))
        #expect(served.requests.isEmpty)
        #expect(try written().map(\.payload.kind) == ["rstStream(protocolError)", "rstStream(protocolError)"])
    }

    @Test("an idle connection gets GOAWAY and is closed; on shutdown, GOAWAY names the last stream and the connection closes once it is answered")
    func idleAndQuiesce() throws {
        try send(5, .headers(.init(headers: Self.head("GET"), endStream: true)))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        var frames = try written()
        guard case .goAway(let last, let code, _) = frames.first?.payload else {
            Issue.record("expected GOAWAY: \(frames)")
            return
        }
        #expect(last == HTTP2StreamID(5) && code == .noError)
        #expect(channel.isActive, "the open stream is answered first")
        answer(5)
        frames = try written()
        #expect(frames.map(\.payload.kind) == ["headers", "data"])
        #expect(!channel.isActive)

        // A second connection, left idle.
        let idle = EmbeddedChannel(loop: loop)
        try idle.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        let admission = ConnectionAdmission(maxConnections: 10, notices: ConnectionNotices(logger: LogCollector().logger))
        try idle.pipeline.syncOperations.addHandler(HTTP2RequestStreams(limits: Self.limits, admission: admission) { _, _ in })
        loop.advanceTime(by: .seconds(59))
        #expect(idle.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!idle.isActive)
        let goAway = try idle.readOutbound(as: HTTP2Frame.self)
        #expect(goAway.map { "\($0.payload.kind)" } == "goAway")
    }

    @Test("the date field is RFC 9110's IMF-fixdate")
    func dateText() {
        #expect(HTTPDateText.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateText.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }
}

extension HTTP2Frame.FramePayload {
    /// A short name for the frame, with a reset's code and a window update's increment.
    var kind: String {
        switch self {
        case .headers: "headers"
        case .data: "data"
        case .rstStream(let code): "rstStream(\(Self.name(code)))"
        case .windowUpdate(let increment): "windowUpdate(\(increment))"
        case .goAway: "goAway"
        default: "other"
        }
    }

    private static func name(_ code: NIOHTTP2.HTTP2ErrorCode) -> String {
        switch code {
        case .noError: "noError"
        case .cancel: "cancel"
        case .protocolError: "protocolError"
        case .internalError: "internalError"
        default: "\(code)"
        }
    }
}
