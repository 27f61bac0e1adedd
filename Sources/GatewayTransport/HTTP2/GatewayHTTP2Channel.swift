import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP2

/// HTTP/2, once ALPN has chosen it: NIOHTTP2's framing, then [`HTTP2RequestStreams`], and each
/// complete request answered by the router ([`RouterCall`]).
///
/// Hummingbird's own HTTP/2 channel gave every stream a child channel, a pipeline of four
/// handlers, an async channel and a task reading it: on this gateway's small requests that
/// cost more than HTTP/1.1's whole request (profile in `scripts/profile-request-cost`).
struct GatewayHTTP2Channel: Sendable {
    let router: RouterCall
    let limits: HTTP2RequestStreams.Limits
    let admission: ConnectionAdmission
    /// Every connection's held answers, shared by the process's listeners.
    let budget: HTTP2ResponseBudget

    /// Adds the HTTP/2 handlers; on the channel's event loop.
    func setup(channel: any Channel, logger: Logger) throws {
        let router = router
        let serve: HTTP2RequestStreams.Serve = { request, streams in
            let stream = request.stream
            router.start(Request(head: request.head, body: RequestBody(buffer: request.body)), on: channel, logger: logger) {
                if let answer = $0 { streams.value.answer(stream, head: answer.head, body: answer.body) } else { streams.value.abandon(stream) }
            }
        }
        try channel.pipeline.syncOperations.addHandler(NIOHTTP2Handler(mode: .server))
        try channel.pipeline.syncOperations.addHandler(HTTP2RequestStreams(limits: limits, admission: admission, budget: budget, serve: serve))
    }
}
