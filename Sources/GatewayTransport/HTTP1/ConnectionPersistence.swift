import Foundation
import GatewayHTTP
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
    private let answers: RefusalAnswers
    private var version = HTTPVersion.http1_1
    private var closeAfterResponse = false
    /// Body bytes of the current request so far: a chunked body declares no length up front.
    private var bodyBytes = 0
    /// The current request's head was refused here: its body parts go nowhere.
    private var refusing = false
    /// The limit was passed after the head went on: the connection closes after the response.
    private var closeAfterEnd = false

    init(maxBodyBytes: Int, answers: RefusalAnswers) {
        self.maxBodyBytes = maxBodyBytes
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard case .head(var head) = part else {
            if refusing { return }
            if case .body(let buffer) = part {
                bodyBytes += buffer.readableBytes
                if bodyBytes > maxBodyBytes { closeAfterEnd = true }
            }
            return context.fireChannelRead(data)
        }
        bodyBytes = 0
        version = head.version
        // RFC 9112 6.1: chunked is the only transfer coding this server decodes; any other would
        // reach the route still encoded. "gzip, chunked" gets 501 (a coding it does not
        // implement); a final coding other than chunked leaves no way to frame the body: 400.
        // Either way the connection closes.
        if let coding = head.headers[canonicalForm: "transfer-encoding"].map({ $0.lowercased() }).nonChunked {
            refusing = true
            refuse(context, coding: coding, path: head.uri)
            return
        }
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
        if case .end = unwrapOutboundIn(data), closeAfterEnd {
            // A chunked body passed server.maxBodyBytes: what is left of it would be read as the next request.
            let closed = context.eventLoop.makePromise(of: Void.self)
            // The channel (Sendable) rather than the context, which a @Sendable callback may not hold.
            let channel = context.channel
            closed.futureResult.whenComplete { _ in channel.close(promise: nil) }
            closed.futureResult.cascade(to: promise)
            return context.write(data, promise: closed)
        }
        guard case .head(var head) = unwrapOutboundIn(data), head.status != .continue else {
            return context.write(data, promise: promise)
        }
        if closeAfterEnd { closeAfterResponse = true }
        head.version = version
        if closeAfterResponse {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if version == .http1_0 {
            head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    private func refuse(_ context: ChannelHandlerContext, coding: String, path: String) {
        let refusal: TransportRefusal =
            coding.hasSuffix("chunked")
            ? .codingNotImplemented(String(coding.prefix(64)))
            : .malformed(
                why: "Transfer-Encoding '\(coding.prefix(64))' is not supported: send the body with Content-Length or Transfer-Encoding: chunked"
            )
        let answer = answers(refusal, path: String(path.prefix { $0 != "?" }))
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: answer.contentType)
        headers.add(name: "content-length", value: "\(answer.body.count)")
        headers.add(name: "connection", value: "close")
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: answer.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

extension [String] {
    /// The transfer codings, when they are anything but exactly `chunked`.
    fileprivate var nonChunked: String? {
        let codings = flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        return codings.isEmpty || codings == ["chunked"] ? nil : codings.joined(separator: ", ")
    }
}
