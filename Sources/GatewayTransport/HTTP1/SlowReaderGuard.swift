import NIOCore

/// Bounds what a client that does not read its responses can hold: responses queue in the
/// channel only up to its write buffer's high-water mark, after which the connection stops
/// reading (no more requests are taken from a client that takes no answers), and a connection
/// that stays unwritable for `writeTimeout` is closed. Hummingbird's idle timeout does not run
/// while a response is being written, so without this a client that pipelines requests and never
/// reads would hold its slot for ever.
///
/// Only ever touched on its connection's event loop.
final class SlowReaderGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let writeTimeout: TimeAmount
    private let notices: ConnectionNotices
    private var timer: Scheduled<Void>?
    private var readPending = false

    init(writeTimeout: TimeAmount, notices: ConnectionNotices) {
        self.writeTimeout = writeTimeout
        self.notices = notices
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            timer?.cancel()
            timer = nil
            if readPending {
                readPending = false
                context.read()
            }
        } else if timer == nil {
            let channel = context.channel
            let seconds = writeTimeout.nanoseconds / 1_000_000_000
            let notices = notices
            timer = context.eventLoop.scheduleTask(in: writeTimeout) {
                notices.notice("responses not read by the client within \(seconds)s")
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// While responses wait for the client, no more requests are read.
    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            readPending = true
            return
        }
        context.read()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}
