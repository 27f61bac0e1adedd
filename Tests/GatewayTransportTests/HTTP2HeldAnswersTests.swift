import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import GatewayTransport

/// Issue 59: what the HTTP/2 stream handler does with answers NIOHTTP2 holds for a client that
/// gives no window. Frames in and out on embedded channels; NIOHTTP2's closing of a stream (its
/// answer sent) and its window changes are the events the test sends.
@Suite("HTTP/2 answers held for clients")
struct HTTP2HeldAnswersTests {
    /// One connection: its channel, and the streams it handed to `serve`.
    final class Connection {
        let channel: EmbeddedChannel
        var served: [HTTP2StreamID] = []
        var streams: NIOLoopBound<HTTP2RequestStreams>?

        init(loop: EmbeddedEventLoop, budget: HTTP2ResponseBudget, maxHeldBytes: Int = 1024 * 1024) throws {
            channel = EmbeddedChannel(loop: loop)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            let admission = ConnectionAdmission(maxConnections: 10, notices: ConnectionNotices(logger: LogCollector().logger))
            var limits = HTTP2RequestStreamsTests.limits
            limits.writeTimeout = .seconds(10)
            limits.maxHeldBytes = maxHeldBytes
            let handler = HTTP2RequestStreams(limits: limits, admission: admission, budget: budget) { [unowned self] request, streams in
                served.append(request.stream)
                self.streams = streams
            }
            try channel.pipeline.syncOperations.addHandler(handler)
        }

        func open(_ stream: Int) throws {
            let head: HPACKHeaders = [":method": "GET", ":scheme": "https", ":authority": "localhost", ":path": "/metrics"]
            try channel.writeInbound(HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .headers(.init(headers: head, endStream: true))))
            channel.pipeline.fireChannelReadComplete()
        }

        func answer(_ stream: Int, bytes: Int) {
            streams?.value.answer(
                HTTP2StreamID(stream),
                head: HTTPResponse(status: .ok),
                body: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes)
            )
        }

        /// NIOHTTP2 sent the answer and closed the stream.
        func sent(_ stream: Int) {
            channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: HTTP2StreamID(stream), reason: nil))
        }

        func written() throws -> [String] {
            channel.embeddedEventLoop.run()
            var frames: [String] = []
            while let frame = try channel.readOutbound(as: HTTP2Frame.self) {
                switch frame.payload {
                case .rstStream(.refusedStream): frames.append("refused")
                case .goAway(_, let code, _): frames.append("goAway(\(code == .enhanceYourCalm ? "enhanceYourCalm" : "\(code)"))")
                default: frames.append(frame.payload.kind)
                }
            }
            return frames
        }
    }

    let loop = EmbeddedEventLoop()

    @Test("past maxHeldBytes a connection's new streams are refused with REFUSED_STREAM, unserved; once its answer is sent they are served again")
    func connectionCap() throws {
        let budget = HTTP2ResponseBudget()
        let connection = try Connection(loop: loop, budget: budget, maxHeldBytes: 10_000)
        try connection.open(1)
        connection.answer(1, bytes: 8000)
        #expect(budget.bytes == HTTP2RequestStreams.streamCost + 8000)
        #expect(try connection.written() == ["headers", "data"])
        try connection.open(3)
        #expect(connection.served == [HTTP2StreamID(1)])
        #expect(try connection.written() == ["refused"])

        connection.sent(1)
        #expect(budget.bytes == 0)
        try connection.open(5)
        #expect(connection.served == [HTTP2StreamID(1), HTTP2StreamID(5)])
        #expect(budget.bytes == HTTP2RequestStreams.streamCost, "the stream being answered")
    }

    @Test("with the process's budget spent, a connection holding answers is refused; one holding nothing still gets a stream; closing releases all")
    func processBudget() throws {
        let budget = HTTP2ResponseBudget(limit: 10_000)
        let holding = try Connection(loop: loop, budget: budget)
        try holding.open(1)
        holding.answer(1, bytes: 9000)
        try holding.open(3)
        #expect(holding.served == [HTTP2StreamID(1)])
        #expect(try holding.written() == ["headers", "data", "refused"])

        let fresh = try Connection(loop: loop, budget: budget)
        try fresh.open(1)
        try fresh.open(3)
        #expect(fresh.served == [HTTP2StreamID(1)])
        #expect(try fresh.written() == ["refused"])

        try holding.channel.close().wait()
        try fresh.channel.close().wait()
        loop.run()
        #expect(budget.bytes == 0)
    }

    @Test("held answers that make no progress for the write timeout close the connection with GOAWAY; the window moving puts it off")
    func stall() throws {
        let connection = try Connection(loop: loop, budget: HTTP2ResponseBudget())
        try connection.open(1)
        connection.answer(1, bytes: 100)
        _ = try connection.written()
        let window = { (size: Int) in
            connection.channel.pipeline.fireUserInboundEventTriggered(
                NIOHTTP2WindowUpdatedEvent(streamID: .rootStream, inboundWindowSize: nil, outboundWindowSize: size)
            )
        }
        window(65_535)
        loop.advanceTime(by: .seconds(6))
        window(1000)  // some of the answers left
        loop.advanceTime(by: .seconds(6))
        #expect(connection.channel.isActive, "progress 6 s ago")
        loop.advanceTime(by: .seconds(4))
        #expect(!connection.channel.isActive)
        #expect(try connection.written() == ["goAway(enhanceYourCalm)"])
    }

    @Test("answers that leave arm no stall: a connection whose answers are sent stays open past the write timeout")
    func sentAnswers() throws {
        let connection = try Connection(loop: loop, budget: HTTP2ResponseBudget())
        try connection.open(1)
        connection.answer(1, bytes: 100)
        connection.sent(1)
        loop.advanceTime(by: .seconds(30))
        #expect(connection.channel.isActive)
        #expect(try connection.written() == ["headers", "data"])
    }
}
