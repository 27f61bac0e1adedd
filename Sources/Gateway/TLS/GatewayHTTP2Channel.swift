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
    typealias Respond = RouterCall.Respond

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

    private static func answer(
        _ request: HTTP2StreamRequest,
        to streams: NIOLoopBound<HTTP2RequestStreams>,
        on channel: any Channel,
        respond: Respond,
        serverName: String,
        logger: Logger
    ) async {
        let answer = await RouterCall.answer(
            Request(head: request.head, body: RequestBody(buffer: request.body)),
            on: channel,
            respond: respond,
            serverName: serverName,
            logger: logger
        )
        let stream = request.stream
        RouterCall.onLoop(channel.eventLoop) {
            if let answer { streams.value.answer(stream, head: answer.head, body: answer.body) } else { streams.value.abandon(stream) }
        }
    }
}
