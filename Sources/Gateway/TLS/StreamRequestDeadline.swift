import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// One HTTP/2 stream's request must arrive whole within `limit` (the head and body timeouts
/// together), or the stream is reset; the connection and its other streams go on. A stream whose
/// request completes admits its connection as one that completes requests.
///
/// Only ever touched on its stream's event loop.
final class StreamRequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let limit: TimeAmount
    private let admission: ConnectionAdmission
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount, admission: ConnectionAdmission) {
        self.limit = limit
        self.admission = admission
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let notices = admission.notices
        let seconds = limit.nanoseconds / 1_000_000_000
        timer = context.eventLoop.scheduleTask(in: limit) {
            notices.notice("HTTP/2 request not complete within \(seconds)s")
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            timer?.cancel()
            timer = nil
            if let connection = context.channel.parent { admission.settle(connection) }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}
