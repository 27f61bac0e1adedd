import NIOCore
import NIOHTTP1

/// Whether the connection stays open after a response, decided where the HTTP version is still
/// known (the HTTP types Hummingbird works with have none):
/// - an HTTP/1.0 request without `Connection: keep-alive`, or any request with `Connection:
///   close`, is answered in its own version with `Connection: close`, and the connection closes;
/// - a request declaring a body over `server.maxBodyBytes` is answered 413 and the connection
///   closes, rather than waiting for a body its client may never send (after `Expect:
///   100-continue` it will not); any other `Expect: 100-continue` gets its `100 Continue` here.
/// Hummingbird closes after a response when the request says `Connection: close`, so that is what
/// the request head is given.
final class ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let maxBodyBytes: Int
    private var version = HTTPVersion.http1_1
    private var closeAfterResponse = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        version = head.version
        let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        closeAfterResponse = !head.isKeepAlive || declared > maxBodyBytes
        if closeAfterResponse {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if head.version == .http1_1, head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            // Clients that wait for "100 Continue" before sending a body (FoundationNetworking's
            // URLSession waits for ever) get it at once; a body over the limit gets its 413 instead.
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status != .continue else {
            return context.write(data, promise: promise)
        }
        head.version = version
        if closeAfterResponse {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if version == .http1_0 {
            head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
