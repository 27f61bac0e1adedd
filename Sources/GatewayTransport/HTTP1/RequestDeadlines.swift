import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// How long a client may take to send a request. Hummingbird's idle timeout alone would not do:
/// it counts from the last byte, and a client trickling one byte at a time resets it for ever.
package struct RequestTimeLimits: Sendable {
    /// From a request's first byte until its head is complete.
    package var head: TimeAmount
    /// From a complete head until the body's last byte.
    package var body: TimeAmount
    /// A body slower than this (after its first second) is cut off; 0 turns the check off.
    package var minBodyBytesPerSecond: Int

    package init(head: TimeAmount, body: TimeAmount, minBodyBytesPerSecond: Int) {
        self.head = head
        self.body = body
        self.minBodyBytesPerSecond = minBodyBytesPerSecond
    }
}

/// One connection's request deadlines: the head within `head` of its first byte, the body within
/// `body` of the head and never slower than `minBodyBytesPerSecond`. Past one, the connection is
/// closed.
///
/// The timer is armed only when a read ends with a request still incomplete, so a client that
/// sends each request whole in one packet, as well-behaved ones do, costs no timer at all.
/// Unchecked `Sendable`: it is only ever touched on its connection's event loop.
package final class RequestDeadlines: @unchecked Sendable {
    private enum Phase {
        /// Between requests (or responding to one): nothing is due.
        case idle
        case head(since: NIODeadline)
        case body(since: NIODeadline, received: Int, expected: Int?)
        case responding
    }

    private static let rateCheckInterval = TimeAmount.seconds(1)

    private let limits: RequestTimeLimits
    private let notices: ConnectionNotices
    private var phase = Phase.idle
    private var timer: Scheduled<Void>?
    private var timerDue: NIODeadline?

    init(limits: RequestTimeLimits, notices: ConnectionNotices) {
        self.limits = limits
        self.notices = notices
    }

    func bytesArrived() {
        if case .idle = phase { phase = .head(since: .now()) }
    }

    func headArrived(expectedBodyBytes: Int?) {
        phase = .body(since: .now(), received: 0, expected: expectedBodyBytes)
    }

    func bodyArrived(_ count: Int) {
        if case .body(let since, let received, let expected) = phase {
            phase = .body(since: since, received: received + count, expected: expected)
        }
    }

    /// A TLS handshake completed with no request byte yet: the connection waits like an idle one.
    func handshakeFinished() {
        if case .head = phase { phase = .idle }
    }

    /// HTTP/2 was negotiated: its streams have their own deadlines, and the connection's bytes
    /// start none (as if forever responding).
    func disable() {
        cancel()
        phase = .responding
    }

    func requestComplete() {
        phase = .responding
    }

    func responseFinished() {
        if case .responding = phase { phase = .idle }
    }

    /// Between requests: the last response is written and no byte of another has arrived.
    var isIdle: Bool {
        if case .idle = phase { true } else { false }
    }

    /// After a read: makes sure the timer fires by the next moment a limit could be passed.
    func armIfNeeded(on channel: any Channel) {
        guard let due = nextCheck(now: .now()) else { return }
        if let timerDue, timerDue <= due { return }
        timer?.cancel()
        timerDue = due
        timer = channel.eventLoop.scheduleTask(deadline: due) { [self] in
            timer = nil
            timerDue = nil
            check(channel)
        }
    }

    func cancel() {
        timer?.cancel()
        timer = nil
        timerDue = nil
    }

    private func nextCheck(now: NIODeadline) -> NIODeadline? {
        switch phase {
        case .idle, .responding: nil
        case .head(let since): since + limits.head
        case .body(let since, _, _):
            limits.minBodyBytesPerSecond > 0 ? min(since + limits.body, now + Self.rateCheckInterval) : since + limits.body
        }
    }

    private func check(_ channel: any Channel) {
        let now = NIODeadline.now()
        switch phase {
        case .head(let since) where now - since >= limits.head:
            close(channel, "request head not complete within \(limits.head.seconds)s")
        case .body(let since, _, _) where now - since >= limits.body:
            close(channel, "request body not complete within \(limits.body.seconds)s")
        case .body(let since, let received, let expected) where limits.minBodyBytesPerSecond > 0:
            let elapsed = now - since
            let owed = min(expected ?? .max, limits.minBodyBytesPerSecond * Int(elapsed.nanoseconds / 1_000_000) / 1000)
            guard elapsed < Self.rateCheckInterval || received >= owed else {
                return close(channel, "request body slower than \(limits.minBodyBytesPerSecond) bytes/s")
            }
            armIfNeeded(on: channel)
        default:
            armIfNeeded(on: channel)
        }
    }

    private func close(_ channel: any Channel, _ why: String) {
        notices.notice(why)
        channel.close(promise: nil)
    }
}

extension TimeAmount {
    fileprivate var seconds: Int64 { nanoseconds / 1_000_000_000 }
}

/// Before the HTTP decoder: the first byte of a request starts its clock, and the end of each
/// read arms the timer if a request is still incomplete.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let deadlines: RequestDeadlines
    private let admission: ConnectionAdmission

    init(_ deadlines: RequestDeadlines, admission: ConnectionAdmission) {
        self.deadlines = deadlines
        self.admission = admission
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if deadlines.isIdle { admission.becameBusy(context.channel) }
        deadlines.bytesArrived()
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        deadlines.armIfNeeded(on: context.channel)
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadlines.cancel()
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: a complete head starts the body's clock, the end of the request stops it and admits the
/// connection as one that completes requests, the end of the response readies it for the next.
final class RequestPartsWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    private let deadlines: RequestDeadlines
    private let admission: ConnectionAdmission
    private var admitted = false
    private let maxPipelined: Int
    /// Requests read whose response has not been written yet.
    private var unanswered = 0
    /// Closed for pipelining too far ahead: what the decoder had already parsed from the same
    /// read is dropped, neither served nor noticed once per request.
    private var closing = false

    init(_ deadlines: RequestDeadlines, admission: ConnectionAdmission, maxPipelined: Int = .max) {
        self.deadlines = deadlines
        self.admission = admission
        self.maxPipelined = maxPipelined
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if closing { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            deadlines.headArrived(expectedBodyBytes: head.headerFields[.contentLength].flatMap { Int($0) })
        case .body(let buffer):
            deadlines.bodyArrived(buffer.readableBytes)
        case .end:
            unanswered += 1
            guard unanswered <= maxPipelined else {
                closing = true
                admission.notices.notice("more than \(maxPipelined) requests sent ahead of their responses")
                context.close(promise: nil)
                return
            }
            deadlines.requestComplete()
            if !admitted {
                admitted = true
                admission.settle(context.channel)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        unanswered -= 1
        deadlines.responseFinished()
        context.write(data, promise: promise)
        if deadlines.isIdle { admission.becameIdle(context.channel) }
    }
}
