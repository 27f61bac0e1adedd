import HTTPTypes
import NIOCore
import NIOHPACK
import NIOHTTP2

/// One request, read whole from its HTTP/2 stream.
struct HTTP2StreamRequest: Sendable {
    let stream: HTTP2StreamID
    let head: HTTPRequest
    /// At most `maxBodyBytes + 1` bytes: a longer body is cut there, so that the route's own
    /// limit refuses it with the gateway's 413 body.
    let body: ByteBuffer
}

/// HTTP/2 requests served on the connection itself: no child channel, pipeline and async
/// channel per stream, which cost more than the request they carried. NIOHTTP2's handler,
/// before this one, frames the connection (settings, HPACK, stream states, flow-control
/// accounting, the reset-flood, continuation and concurrency limits); this handler gathers each
/// stream's head and body, hands the complete request to `serve`, and writes the answer given to
/// `answer` as frames. Responses finishing together leave in one flush.
///
/// Deadlines: a stream's request must arrive whole within `requestTime` or the stream is reset
/// (the connection and its other streams go on); a connection without streams for `idleTimeout`
/// is closed; on shutdown the connection sends GOAWAY, answers the streams it has, then closes.
///
/// Answers held back: NIOHTTP2 keeps an answer until the client's flow-control windows let it
/// out, so a client that opens streams and gives no window (or reads nothing) made the server
/// build and keep every answer (issue 59: 200 connections of 100 streams took a gateway from
/// 64 MB to 255 MB). Each stream is charged from the moment it is served until NIOHTTP2 closes
/// it (its answer sent, or dropped with the stream): `streamCost`, then its body too. A new
/// stream is refused with REFUSED_STREAM (not processed; the client may retry it) while the
/// connection holds `maxHeldBytes`, or while the process's [`HTTP2ResponseBudget`] is spent
/// and the connection holds anything. Reading goes on, as the client's WINDOW_UPDATEs are what
/// lets the answers out. A connection whose held answers make no progress for `writeTimeout`
/// gets GOAWAY and is closed, as HTTP/1.1's slow reader is ([`SlowReaderGuard`]).
///
/// Only ever touched on its connection's event loop.
final class HTTP2RequestStreams: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame
    typealias Serve = (HTTP2StreamRequest, NIOLoopBound<HTTP2RequestStreams>) -> Void

    struct Limits {
        var requestTime: TimeAmount
        var idleTimeout: TimeAmount
        var gracefulCloseTimeout: TimeAmount
        var maxBodyBytes: Int
        /// Held answers that make no progress this long close the connection.
        var writeTimeout: TimeAmount = .seconds(10)
        /// Past this much held, the connection's new streams are refused.
        var maxHeldBytes = 1024 * 1024
    }

    private struct Stream {
        var head: HTTPRequest
        var body = ByteBuffer()
        var startedAt: NIODeadline
        /// Handed to `serve`; its answer is awaited.
        var answering = false
        /// Answered before the client finished sending (a body over the limit): after the
        /// answer, the stream is reset with NO_ERROR, as RFC 9113 §8.1 allows.
        var requestOpen = false
    }

    /// NIOHTTP2's default windows, kept full as the connection and each stream consume them.
    private static let targetWindow = 65_535
    /// What a served stream costs besides its answer's body: its head, the answer's HPACK block
    /// and NIOHTTP2's state for it (the whole of a stream whose answer is still being computed).
    static let streamCost = 4096

    private let limits: Limits
    private let admission: ConnectionAdmission
    private let budget: HTTP2ResponseBudget
    private let serve: Serve
    private var context: ChannelHandlerContext?
    private var streams: [HTTP2StreamID: Stream] = [:]
    private var lastStreamID = HTTP2StreamID.rootStream
    private var settled = false
    private var idleSince: NIODeadline?
    private var idleTimer: Scheduled<Void>?
    private var deadlineTimer: Scheduled<Void>?
    private var quiescing = false
    private var flushPending = false
    private var date = HTTPDateText()
    /// Charged to this connection: `streamCost` for each stream being answered, and each answer
    /// in `held`.
    private var heldBytes = 0
    /// Answered streams NIOHTTP2 has not closed yet, with what each is charged.
    private var held: [HTTP2StreamID: Int] = [:]
    /// When an answer held last left, or the connection's send window last moved.
    private var heldProgress = NIODeadline.uptimeNanoseconds(0)
    private var sendWindow: Int?
    private var stallTimer: Scheduled<Void>?

    init(
        limits: Limits,
        admission: ConnectionAdmission,
        budget: HTTP2ResponseBudget = HTTP2ResponseBudget(),
        serve: @escaping Serve
    ) {
        self.limits = limits
        self.admission = admission
        self.budget = budget
        self.serve = serve
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        idleSince = context.eventLoop.now
        armIdleTimer(at: context.eventLoop.now + limits.idleTimeout)
    }

    /// After NIOHTTP2's own removal, which drops the answers it held: then they are freed.
    func handlerRemoved(context: ChannelHandlerContext) {
        stopTimers()
        releaseAll()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimers()
        streams.removeAll()
        context.fireChannelInactive()
    }

    // MARK: Reading requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers): received(headers, on: frame.streamID)
        case .data(let data): received(data, on: frame.streamID)
        default: break
        }
    }

    private func received(_ headers: HTTP2Frame.FramePayload.Headers, on id: HTTP2StreamID) {
        if var stream = streams[id] {
            // Trailers: nothing of them is used, but they may end the request.
            guard headers.endStream, !stream.answering else { return }
            stream.answering = true
            streams[id] = stream
            complete(id, stream)
            return
        }
        guard heldBytes < limits.maxHeldBytes, budget.admits(connectionBytes: heldBytes) else {
            reset(id, .refusedStream)
            return
        }
        guard let head = HTTP2Fields.request(headers.headers) else {
            reset(id, .protocolError)
            return
        }
        if streams.isEmpty { becameBusy() }
        if id > lastStreamID { lastStreamID = id }
        let stream = Stream(head: head, startedAt: now, answering: headers.endStream)
        streams[id] = stream
        if headers.endStream { complete(id, stream) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if deadlineTimer == nil { armDeadline() }
        context.fireChannelReadComplete()
    }

    private func received(_ data: HTTP2Frame.FramePayload.Data, on id: HTTP2StreamID) {
        guard streams[id]?.answering == false, case .byteBuffer(var bytes) = data.data else { return }
        // Out of the dictionary while it grows, so that appending copies no body.
        guard var stream = streams.removeValue(forKey: id) else { return }
        if stream.body.readableBytes + bytes.readableBytes > limits.maxBodyBytes {
            // Over the limit: the route refuses what it is given, and the rest is not waited for.
            let kept = limits.maxBodyBytes + 1 - stream.body.readableBytes
            // `kept` is at most what arrived (the sum passed the limit); min() says so without a crash.
            stream.body.writeImmutableBuffer(bytes.readSlice(length: min(kept, bytes.readableBytes)) ?? ByteBuffer())
            stream.answering = true
            stream.requestOpen = !data.endStream
        } else {
            if stream.body.readableBytes == 0 { stream.body = bytes } else { stream.body.writeBuffer(&bytes) }
            stream.answering = data.endStream
        }
        streams[id] = stream
        if stream.answering { complete(id, stream) }
    }

    private func complete(_ id: HTTP2StreamID, _ stream: Stream) {
        if !settled, let channel = context?.channel {
            settled = true
            admission.settle(channel)
        }
        guard let context else { return }
        charge(Self.streamCost)
        serve(
            HTTP2StreamRequest(stream: id, head: stream.head, body: stream.body),
            NIOLoopBound(self, eventLoop: context.eventLoop)
        )
    }

    // MARK: Writing answers

    /// The answer to a request `serve` was given. A stream the client reset meanwhile is gone,
    /// and its answer with it.
    func answer(_ id: HTTP2StreamID, head: HTTPResponse, body: ByteBuffer) {
        guard let context, let stream = streams.removeValue(forKey: id) else { return }
        let sendsBody = body.readableBytes > 0 && stream.head.method != .head
        // Before the writes: NIOHTTP2 may close the stream while they are made.
        if sendsBody { charge(body.readableBytes) }
        hold(id, bytes: Self.streamCost + (sendsBody ? body.readableBytes : 0))
        let block = HTTP2Fields.responseBlock(head, date: date.now())
        context.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .headers(.init(headers: block, endStream: !sendsBody)))), promise: nil)
        // The reset of a request answered early must follow its body out: NIOHTTP2 drops the
        // DATA of a reset stream that flow control still holds.
        let sent = stream.requestOpen ? context.eventLoop.makePromise(of: Void.self) : nil
        if sendsBody {
            let data = HTTP2Frame(streamID: id, payload: .data(.init(data: .byteBuffer(body), endStream: true)))
            context.write(wrapOutboundOut(data), promise: sent)
        } else {
            sent?.succeed()
        }
        if let sent {
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            sent.futureResult.whenSuccess { handler.value.reset(id, .noError) }
        }
        flushSoon()
        streamEnded()
    }

    /// `serve` could not answer (its response body failed part-way): the stream is reset.
    func abandon(_ id: HTTP2StreamID) {
        guard streams.removeValue(forKey: id) != nil else { return }
        release(Self.streamCost)
        reset(id, .internalError)
        streamEnded()
    }

    private func reset(_ id: HTTP2StreamID, _ code: NIOHTTP2.HTTP2ErrorCode) {
        context?.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .rstStream(code))), promise: nil)
        flushSoon()
    }

    /// Writes made while handling one turn of the event loop (reads, or responses finishing
    /// together) go out in one flush, after the turn.
    private func flushSoon() {
        guard !flushPending, let context else { return }
        flushPending = true
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let handler = handler.value
            handler.flushPending = false
            handler.context?.flush()
        }
    }

    // MARK: Connection events

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let closed as StreamClosedEvent:
            if let bytes = held.removeValue(forKey: closed.streamID) {
                release(bytes)
                heldProgress = now
            } else if let stream = streams.removeValue(forKey: closed.streamID) {
                if stream.answering { release(Self.streamCost) }
                streamEnded()
            }
        case let window as NIOHTTP2WindowUpdatedEvent:
            if window.streamID == .rootStream, let size = window.outboundWindowSize, size != sendWindow {
                // Answers leaving, or the client opening its window for them.
                if sendWindow != nil, !held.isEmpty { heldProgress = now }
                sendWindow = size
            }
            refill(window)
        case is ChannelShouldQuiesceEvent:
            quiesce()
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Keeps the client's send windows open for the requests it is sending: a window run below
    /// half is topped up to its target. A stream whose body is over the limit gets no more.
    private func refill(_ event: NIOHTTP2WindowUpdatedEvent) {
        guard let size = event.inboundWindowSize else { return }
        if event.streamID != .rootStream {
            guard let stream = streams[event.streamID], !stream.answering else { return }
        }
        guard size < Self.targetWindow / 2 else { return }
        let increment = Self.targetWindow - size
        context?.write(
            wrapOutboundOut(HTTP2Frame(streamID: event.streamID, payload: .windowUpdate(windowSizeIncrement: increment))),
            promise: nil
        )
        flushSoon()
    }

    /// Graceful shutdown: no new streams (GOAWAY names the last one taken), the ones taken are
    /// answered, and the connection closes when they are, or after `gracefulCloseTimeout`.
    private func quiesce() {
        guard !quiescing, let context else { return }
        quiescing = true
        goAway()
        if streams.isEmpty {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        idleTimer?.cancel()
        idleTimer = context.eventLoop.scheduleTask(in: limits.gracefulCloseTimeout) { channel.close(promise: nil) }
    }

    /// Tells the client no stream after the last one it opened will be served.
    private func goAway(_ code: NIOHTTP2.HTTP2ErrorCode = .noError) {
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: code, opaqueData: nil))
        context?.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    private func streamEnded() {
        guard streams.isEmpty, let context else { return }
        if quiescing {
            let channel = context.channel
            // After the flush of the last answer.
            context.eventLoop.execute { channel.close(promise: nil) }
            return
        }
        idleSince = now
        admission.becameIdle(context.channel)
    }

    private func becameBusy() {
        idleSince = nil
        if let channel = context?.channel { admission.becameBusy(channel) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A stream's error has already reset that stream; the connection goes on.
        if error is NIOHTTP2Errors.StreamError { return }
        context.close(promise: nil)
    }

    // MARK: Timers

    /// One timer for the connection's idleness, re-armed only when it fires: requests cost no
    /// timer of their own.
    private func armIdleTimer(at due: NIODeadline) {
        guard let context else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(deadline: due) { handler.value.idleTimerFired() }
    }

    private func idleTimerFired() {
        guard !quiescing, let context else { return }
        guard let idleSince else {
            armIdleTimer(at: now + limits.idleTimeout)
            return
        }
        if idleSince + limits.idleTimeout <= now {
            goAway()
            context.close(promise: nil)
        } else {
            armIdleTimer(at: idleSince + limits.idleTimeout)
        }
    }

    /// One timer for every stream still sending its request, armed at the end of a read for the
    /// earliest deadline. A request that arrives whole in one read, as well-behaved clients send
    /// them, arms nothing.
    private func armDeadline() {
        guard let context,
            let earliest = streams.values.lazy.filter({ !$0.answering }).map(\.startedAt).min()
        else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadlineTimer = context.eventLoop.scheduleTask(deadline: earliest + limits.requestTime) {
            handler.value.deadlinePassed()
        }
    }

    private func deadlinePassed() {
        deadlineTimer = nil
        let current = now
        let seconds = limits.requestTime.nanoseconds / 1_000_000_000
        let late = streams.filter { !$0.value.answering && $0.value.startedAt + limits.requestTime <= current }.keys
        for id in late {
            streams[id] = nil
            admission.notices.notice("HTTP/2 request not complete within \(seconds)s")
            reset(id, .cancel)
        }
        armDeadline()
        if !late.isEmpty { streamEnded() }
    }

    // MARK: Answers held

    private func charge(_ bytes: Int) {
        heldBytes += bytes
        budget.charge(bytes)
    }

    private func release(_ bytes: Int) {
        heldBytes -= bytes
        budget.release(bytes)
    }

    /// The answer, charged `bytes` in all, is NIOHTTP2's until it closes the stream.
    private func hold(_ id: HTTP2StreamID, bytes: Int) {
        if held.isEmpty { heldProgress = now }
        held[id] = bytes
        if stallTimer == nil { armStallTimer(at: now + limits.writeTimeout) }
    }

    /// One timer for the connection's held answers, re-armed only when it fires: answers that
    /// leave at once cost no timer of their own.
    private func armStallTimer(at due: NIODeadline) {
        guard let context else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        stallTimer = context.eventLoop.scheduleTask(deadline: due) { handler.value.stallTimerFired() }
    }

    private func stallTimerFired() {
        stallTimer = nil
        guard !held.isEmpty, let context else { return }
        if heldProgress + limits.writeTimeout > now {
            armStallTimer(at: heldProgress + limits.writeTimeout)
            return
        }
        admission.notices.notice("HTTP/2 answers not taken by the client within \(limits.writeTimeout.nanoseconds / 1_000_000_000)s")
        goAway(.enhanceYourCalm)
        context.close(promise: nil)
    }

    /// The connection is gone, and NIOHTTP2's buffers with it: nothing it held counts any more.
    private func releaseAll() {
        streams.removeAll()
        held.removeAll()
        release(heldBytes)
    }

    /// The event loop's clock (a test's loop keeps its own).
    private var now: NIODeadline { context?.eventLoop.now ?? .now() }

    private func stopTimers() {
        idleTimer?.cancel()
        idleTimer = nil
        deadlineTimer?.cancel()
        deadlineTimer = nil
        stallTimer?.cancel()
        stallTimer = nil
    }
}
