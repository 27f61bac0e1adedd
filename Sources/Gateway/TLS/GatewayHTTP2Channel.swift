import GatewayHTTP
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP2

/// HTTP/2, once ALPN has chosen it: NIOHTTP2's framing, then [`HTTP2RequestStreams`], and each
/// complete request answered by the router in a task of its own. The task starts on the
/// connection's event loop (the event loops are Swift's global executor, and it sticks to the
/// loop it is enqueued from), so a request crosses no thread on its way in or out.
///
/// Hummingbird's own HTTP/2 channel gave every stream a child channel, a pipeline of four
/// handlers, an async channel and a task reading it: on this gateway's small requests that
/// cost more than HTTP/1.1's whole request (profile in `scripts/profile-request-cost`).
struct GatewayHTTP2Channel: Sendable {
    typealias Respond = @Sendable (Request, GatewayRequestContext) async throws -> Response

    let respond: Respond
    let limits: HTTP2RequestStreams.Limits
    let admission: ConnectionAdmission
    let serverName: String

    /// Adds the HTTP/2 handlers; on the channel's event loop.
    func setup(channel: any Channel, logger: Logger) throws {
        let respond = respond
        let serverName = serverName
        let serve: HTTP2RequestStreams.Serve = { request, streams in
            Task {
                await Self.answer(request, to: streams, on: channel, respond: respond, serverName: serverName, logger: logger)
            }
        }
        try channel.pipeline.syncOperations.addHandler(NIOHTTP2Handler(mode: .server))
        try channel.pipeline.syncOperations.addHandler(HTTP2RequestStreams(limits: limits, admission: admission, serve: serve))
    }

    /// The handlers serve the connection; this only waits for it to close.
    func handle(channel: any Channel) async {
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// One request through the router, as Hummingbird's application does it for HTTP/1.1: a
    /// request id on the logger, a 500 for an error no route turned into a response, the
    /// server's name.
    private static func answer(
        _ request: HTTP2StreamRequest,
        to streams: NIOLoopBound<HTTP2RequestStreams>,
        on channel: any Channel,
        respond: Respond,
        serverName: String,
        logger: Logger
    ) async {
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        let context = GatewayRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        var response: Response
        do {
            response = try await respond(Request(head: request.head, body: RequestBody(buffer: request.body)), context)
        } catch {
            logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
            response = Response(status: .internalServerError)
        }
        response.headers[.server] = serverName
        let body = CollectedBody()
        let written: Bool
        do {
            try await response.body.write(CollectingBodyWriter(into: body))
            written = true
        } catch {
            logger.debug("Response body failed: \(error)")
            written = false
        }
        let head = response.head
        let stream = request.stream
        let bytes = body.buffer
        onLoop(channel.eventLoop) {
            if written { streams.value.answer(stream, head: head, body: bytes) } else { streams.value.abandon(stream) }
        }
    }

    private static func onLoop(_ loop: any EventLoop, _ work: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { work() } else { loop.execute(work) }
    }
}

/// A response body gathered whole: the gateway's bodies are small JSON documents and pages, sent
/// as one DATA frame.
private final class CollectedBody: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct CollectingBodyWriter: ResponseBodyWriter {
    let body: CollectedBody

    init(into body: CollectedBody) { self.body = body }

    mutating func write(_ buffer: ByteBuffer) async throws {
        if body.buffer.readableBytes == 0 {
            body.buffer = buffer
        } else {
            var buffer = buffer
            body.buffer.writeBuffer(&buffer)
        }
    }

    mutating func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
        for buffer in buffers { try await write(buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
