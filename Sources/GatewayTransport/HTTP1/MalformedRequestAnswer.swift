import GatewayHTTP
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Gives a request the HTTP parser refuses its front end's error body, like every other error.
///
/// Hummingbird answers a parse error with a bare `400` (empty body, `Connection: close`); this
/// handler, after the HTTP codec, remembers what the parser said and fills that answer in, as the
/// front end of the request's path words it ([`RefusalAnswers`]). A parse
/// error inside a body is the route's to answer (it fails reading the body, and says so): the
/// bare answer that would follow it on the same connection is dropped and the connection closed.
/// Head conversions the HTTP types refuse (a path they cannot hold) are parse errors too, rather
/// than a connection closed without an answer.
final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: RefusalAnswers
    private var parseError: (any Error)?
    /// The path of the connection's latest request head: which front end answers a refusal.
    private var path: String?
    /// A request head arrived and its end has not: a parse error now is inside its body.
    private var inBody = false
    private var replacing = Replacement.none

    init(answers: RefusalAnswers) {
        self.answers = answers
    }

    private enum Replacement {
        case none
        case body([UInt8])
        case dropped
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            inBody = true
            path = head.path
        case .end:
            inBody = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case is HTTPParserError:
            parseError = error
            context.fireErrorCaught(error)
        case is HTTP1TypeConversionError:
            parseError = error
            context.fireErrorCaught(HTTPParserError.invalidURL)
        default:
            context.fireErrorCaught(error)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status == .badRequest && head.headerFields[.contentLength] == "0" && parseError != nil:
            if inBody {
                replacing = .dropped
                promise?.succeed()
                return
            }
            let answer = answers(.malformed(why: MalformedHTTP.explanation(for: parseError)), path: path)
            head.status = answer.status
            head.headerFields[.contentType] = answer.contentType
            head.headerFields[.contentLength] = "\(answer.body.count)"
            replacing = .body(answer.body)
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head(let head) where head.status.kind == .informational:
            context.write(data, promise: promise)
        case .body:
            guard case .none = replacing else {
                promise?.succeed()
                return
            }
            context.write(data, promise: promise)
        case .end:
            defer { replacing = .none }
            switch replacing {
            case .none:
                context.write(data, promise: promise)
            case .body(let body):
                context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
                context.write(data, promise: promise)
            case .dropped:
                promise?.succeed()
                context.close(promise: nil)
            }
        case .head:
            context.write(data, promise: promise)
        }
    }
}
