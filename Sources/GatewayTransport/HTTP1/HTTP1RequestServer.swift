import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// HTTP/1.1 requests answered from the end of the connection's pipeline, one at a time and in
/// order, and handed to `serve`; the answer given to `answer` is written back. Hummingbird's own
/// HTTP/1.1 channel ran every request through an async channel (an async sequence of request
/// parts, an async writer of response parts), which cost more than the router itself on the
/// gateway's small requests (`scripts/profile-request-cost`).
///
/// A request whose end arrives in the same read as its head, as well-behaved clients send them,
/// is handed on whole. One still arriving when a read ends is handed on then, its body as a
/// stream fed as it arrives (so it is in flight, and shutdown waits for it, as before), never more
/// than `maxBodyBytes + 1` bytes of it: the route refuses a longer one with the gateway's 413
/// body. Once the next request has begun arriving while one is answered, nothing more is read
/// from the socket: a client that pipelines waits in the kernel's buffer, and what one read
/// brought waits here, in order. A client that waits for each answer is never held. A parse
/// error is answered as Hummingbird did: inside a body the route reads the body, fails and says
/// why; outside one, a bare 400 that [`MalformedRequestAnswer`] gives the gateway's body. Either
/// way the connection then closes.
///
/// Its decisions are [`HTTP1ConnectionState`]'s; this handler does the I/O they call for. Only
/// ever touched on its connection's event loop.
package final class HTTP1RequestServer: ChannelDuplexHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart
    package typealias Serve = (HTTP1FullRequest, NIOLoopBound<HTTP1RequestServer>) -> Void
    package typealias BodyStream = AsyncThrowingStream<ByteBuffer, any Error>

    private let serve: Serve
    private var context: ChannelHandlerContext?
    /// Every decision: what was read, what is in flight, what waits (``HTTP1ConnectionState``).
    private var state: HTTP1ConnectionState
    /// The streamed body of the request in flight, while it is still arriving.
    private var streamedBody: BodyStream.Continuation?
    private var date = HTTPDateText()

    init(maxBodyBytes: Int, serve: @escaping Serve) {
        self.state = HTTP1ConnectionState(maxBodyBytes: maxBodyBytes)
        self.serve = serve
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        perform(state.received(.part(unwrapInboundIn(data))))
    }

    /// A request still arriving when the read ends is handed on now, its body as a stream.
    package func channelReadComplete(context: ChannelHandlerContext) {
        perform(state.readComplete())
        context.fireChannelReadComplete()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            perform(state.received(.parseError(error)))
        } else {
            context.close(promise: nil)
        }
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent {
            perform(state.inputEnded())
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        perform(state.closed())
        context.fireChannelInactive()
    }

    package func read(context: ChannelHandlerContext) {
        if state.shouldRead() { context.read() }
    }

    /// The answer to the request `serve` was given (nil: its body failed part-way, and the
    /// connection closes). Then the next request, if one was read meanwhile.
    package func answer(_ response: (head: HTTPResponse, body: ByteBuffer)?) {
        guard state.inFlight, let context else { return }
        guard var (head, body) = response else {
            context.close(promise: nil)
            return
        }
        guard let answering = state.answering() else { return }
        if answering.endStreamedBody {
            // Answered before its body ended: the rest of the body is read and dropped.
            streamedBody?.finish()
            streamedBody = nil
        }
        if head.headerFields[.date] == nil { head.headerFields[.date] = date.now() }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        body = ByteBuffer()
        if answering.closeAfter {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let after = state.answered()
        perform(after.next)
        if after.close {
            context.close(promise: nil)
        } else if after.resumeReading {
            context.read()
        }
    }

    /// Does what the state decided.
    private func perform(_ action: HTTP1ConnectionState.Action) {
        switch action {
        case .none:
            return
        case .handOn(let head, let body):
            guard let context else { return }
            let requestBody: RequestBody
            switch body {
            case .whole(let bytes):
                requestBody = RequestBody(buffer: bytes)
            case .streaming(let first):
                let (stream, continuation) = BodyStream.makeStream()
                if first.readableBytes > 0 { continuation.yield(first) }
                streamedBody = continuation
                requestBody = RequestBody(asyncSequence: stream)
            case .failed(let read, let error):
                requestBody = RequestBody(asyncSequence: FailedBody(read: read, error: error))
            }
            serve(HTTP1FullRequest(head: head, body: requestBody), NIOLoopBound(self, eventLoop: context.eventLoop))
        case .feedBody(let bytes):
            streamedBody?.yield(bytes)
        case .endBody(let error):
            if let error { streamedBody?.finish(throwing: error) } else { streamedBody?.finish() }
            streamedBody = nil
        case .answerParseError:
            answerParseError()
        case .close:
            context?.close(promise: nil)
        }
    }

    /// A request the parser refused before its body: Hummingbird's bare 400, which
    /// [`MalformedRequestAnswer`] gives the front end's body, and the connection closes.
    private func answerParseError() {
        guard let context else { return }
        let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// A request read whole.
package struct HTTP1FullRequest: Sendable {
    package let head: HTTPRequest
    package let body: RequestBody
}

/// The body read before the parser refused the rest: the route gets those bytes, then the error.
private struct FailedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let read: ByteBuffer
    let error: any Error

    struct AsyncIterator: AsyncIteratorProtocol {
        var read: ByteBuffer?
        let error: any Error

        mutating func next() async throws -> ByteBuffer? {
            if let bytes = read {
                read = nil
                if bytes.readableBytes > 0 { return bytes }
            }
            throw error
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(read: read, error: error) }
}
