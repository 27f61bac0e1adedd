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
/// Only ever touched on its connection's event loop.
package final class HTTP1RequestServer: ChannelDuplexHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart
    package typealias Serve = (HTTP1FullRequest, NIOLoopBound<HTTP1RequestServer>) -> Void
    package typealias BodyStream = AsyncThrowingStream<ByteBuffer, any Error>

    private enum Input {
        case part(HTTPRequestPart)
        case parseError(any Error)
    }

    private let maxBodyBytes: Int
    private let serve: Serve
    private var context: ChannelHandlerContext?
    /// A request read but not handed on yet: its head, and its body so far.
    private var reading: (head: HTTPRequest, body: ByteBuffer)?
    /// The request handed on is still sending its body, through this stream.
    private var streaming: (body: BodyStream.Continuation, bytes: Int)?
    /// The rest of the current request's parts go nowhere (it was answered before its end).
    private var skippingToEnd = false
    /// A request handed on and not answered yet.
    private var inFlight = false
    private var closeAfterAnswer = false
    /// Parts read while a complete request is answered.
    private var queued = CircularBuffer<Input>()
    private var readHeld = false
    /// The client sent its last byte (the server allows half-closure): the connection closes once
    /// what it sent is answered.
    private var inputClosed = false
    private var date = HTTPDateText()

    init(maxBodyBytes: Int, serve: @escaping Serve) {
        self.maxBodyBytes = maxBodyBytes
        self.serve = serve
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        take(.part(unwrapInboundIn(data)))
    }

    /// A request still arriving when the read ends is handed on now, its body as a stream.
    package func channelReadComplete(context: ChannelHandlerContext) {
        if !inFlight, queued.isEmpty, reading != nil { handOnStreaming() }
        context.fireChannelReadComplete()
    }

    private func handOnStreaming() {
        guard let request = reading else { return }
        let (body, continuation) = BodyStream.makeStream()
        if request.body.readableBytes > 0 { continuation.yield(request.body) }
        streaming = (continuation, request.body.readableBytes)
        handOn(body: .init(asyncSequence: body))
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            take(.parseError(error))
        } else {
            context.close(promise: nil)
        }
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent {
            inputClosed = true
            if !inFlight { context.close(promise: nil) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        streaming?.body.finish(throwing: ChannelError.ioOnClosedChannel)
        streaming = nil
        context.fireChannelInactive()
    }

    /// No reading while a complete request is answered and parts of the next are waiting. Not
    /// while the first is answered alone: a client that waits for each answer sends nothing
    /// meanwhile, and holding its reads took the socket out of epoll and put it back (two
    /// `epoll_ctl` calls a request).
    package func read(context: ChannelHandlerContext) {
        if inFlight, streaming == nil, !queued.isEmpty {
            readHeld = true
        } else {
            context.read()
        }
    }

    private func take(_ input: Input) {
        if let (body, bytes) = streaming {
            switch input {
            case .part(.body(let buffer)):
                // Past the limit the route has what it needs to refuse the body.
                let kept = min(buffer.readableBytes, maxBodyBytes + 1 - bytes)
                if kept > 0 { body.yield(buffer.getSlice(at: buffer.readerIndex, length: kept)!) }
                streaming = (body, bytes + kept)
            case .part(.end):
                body.finish()
                streaming = nil
            case .part(.head):
                // The parser never sends a head before the previous request's end.
                body.finish()
                streaming = nil
                queued.append(input)
            case .parseError(let error):
                body.finish(throwing: error)
                streaming = nil
                closeAfterAnswer = true
            }
        } else if inFlight || !queued.isEmpty {
            queued.append(input)
        } else {
            process(input)
        }
    }

    private func process(_ input: Input) {
        switch input {
        case .part(.head(let head)):
            skippingToEnd = false
            reading = (head, ByteBuffer())
        case .part(.body(var bytes)):
            guard !skippingToEnd, var request = reading else { return }
            if request.body.readableBytes + bytes.readableBytes > maxBodyBytes {
                // At most what arrived (the sum passed the limit); min() says so without a crash.
                let kept = min(maxBodyBytes + 1 - request.body.readableBytes, bytes.readableBytes)
                request.body.writeImmutableBuffer(bytes.readSlice(length: kept) ?? ByteBuffer())
                reading = request
                skippingToEnd = true
                handOn(body: .init(buffer: request.body))
                return
            }
            reading = nil  // its only holder now: appending copies no body
            if request.body.readableBytes == 0 { request.body = bytes } else { request.body.writeBuffer(&bytes) }
            reading = request
        case .part(.end):
            if skippingToEnd {
                skippingToEnd = false
            } else if let request = reading {
                handOn(body: .init(buffer: request.body))
            }
        case .parseError(let error):
            if let request = reading, !skippingToEnd {
                // Inside a body: the route fails reading it, and answers why.
                closeAfterAnswer = true
                handOn(body: .init(asyncSequence: FailedBody(read: request.body, error: error)))
            } else {
                answerParseError()
            }
        }
    }

    private func handOn(body: RequestBody) {
        guard let context, let request = reading else { return }
        reading = nil
        inFlight = true
        if request.head.headerFields[.connection]?.lowercased() == "close" { closeAfterAnswer = true }
        serve(HTTP1FullRequest(head: request.head, body: body), NIOLoopBound(self, eventLoop: context.eventLoop))
    }

    /// The answer to the request `serve` was given (nil: its body failed part-way, and the
    /// connection closes). Then the next request, if one was read meanwhile.
    package func answer(_ response: (head: HTTPResponse, body: ByteBuffer)?) {
        guard inFlight, let context else { return }
        guard var (head, body) = response else {
            context.close(promise: nil)
            return
        }
        if let (stream, _) = streaming {
            // Answered before its body ended: the rest of the body is read and dropped.
            stream.finish()
            streaming = nil
            skippingToEnd = true
        }
        if head.headerFields[.date] == nil { head.headerFields[.date] = date.now() }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        body = ByteBuffer()
        if closeAfterAnswer {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        inFlight = false
        while !inFlight, let next = queued.popFirst() { process(next) }
        if !inFlight, reading != nil {
            // The next request's end was not in what was read: it goes on as a stream.
            handOnStreaming()
        }
        if !inFlight, inputClosed {
            context.close(promise: nil)
        } else if readHeld, !inFlight || streaming != nil {
            readHeld = false
            context.read()
        }
    }

    /// A request the parser refused before its body: Hummingbird's bare 400, which
    /// [`MalformedRequestAnswer`] gives the gateway's body, and the connection closes.
    private func answerParseError() {
        guard let context else { return }
        inFlight = true
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
