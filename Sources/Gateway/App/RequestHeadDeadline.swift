import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// HTTP/1.1 as Hummingbird serves it, plus a deadline on request heads: a client has
/// `headTimeout` from the first byte of a request until its head is complete, or the connection
/// is closed (a slow-loris client trickling header bytes cannot hold a connection). Hummingbird's
/// idle timeout alone would not do: it counts from the last byte, and each trickled byte resets it.
///
/// It takes two handlers per connection: one before the HTTP decoder sees raw bytes arrive (and
/// starts the clock), one after it sees the decoded head (and stops it).
struct HeadDeadlineHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let headTimeout: TimeAmount
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let deadline = RequestHeadDeadline(timeout: headTimeout, logger: logger)
        do {
            try channel.pipeline.syncOperations.addHandler(RequestBytesWatcher(deadline), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return HTTP1Channel(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [RequestHeadWatcher(deadline)], idleTimeout: idleTimeout)
        ).setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}

/// One connection's head deadline. Unchecked `Sendable`: it is only ever touched on its
/// connection's event loop, by that connection's two handlers.
final class RequestHeadDeadline: @unchecked Sendable {
    private let timeout: TimeAmount
    private let logger: Logger
    private var waitingForHead = true
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func bytesArrived(_ context: ChannelHandlerContext) {
        guard waitingForHead, timer == nil else { return }
        let channel = context.channel
        let logger = logger
        let seconds = timeout.nanoseconds / 1_000_000_000
        timer = context.eventLoop.scheduleTask(in: timeout) {
            logger.notice("connection closed: request head not complete within \(seconds)s")
            channel.close(promise: nil)
        }
    }

    func headArrived() {
        waitingForHead = false
        cancel()
    }

    func responseFinished() {
        waitingForHead = true
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }
}

/// Before the HTTP decoder: the first byte of a request starts the clock.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let deadline: RequestHeadDeadline

    init(_ deadline: RequestHeadDeadline) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline.bytesArrived(context)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline.cancel()
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: a complete head stops the clock (and answers `Expect: 100-continue`);
/// the end of the response readies it for the next request on the connection.
final class RequestHeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    private let deadline: RequestHeadDeadline

    init(_ deadline: RequestHeadDeadline) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            deadline.headArrived()
            // Clients that wait for "100 Continue" before sending a body (FoundationNetworking's
            // URLSession waits for ever) get it at once: the body is read whatever it holds.
            if head.headerFields[.expect]?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { deadline.responseFinished() }
        context.write(data, promise: promise)
    }
}
