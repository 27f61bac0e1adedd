import GatewayHTTP
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What a connection may take of the server, from the `server.*` configuration.
package struct ConnectionLimits: Sendable {
    package var requestTime: RequestTimeLimits
    package var idleTimeout: TimeAmount
    package var maxBodyBytes: Int
    /// A connection whose responses wait unread this long is closed.
    package var writeTimeout: TimeAmount
    /// Requests a client may send ahead of their responses.
    package var maxPipelinedRequests: Int

    package init(
        requestTime: RequestTimeLimits,
        idleTimeout: TimeAmount,
        maxBodyBytes: Int,
        writeTimeout: TimeAmount,
        maxPipelinedRequests: Int
    ) {
        self.requestTime = requestTime
        self.idleTimeout = idleTimeout
        self.maxBodyBytes = maxBodyBytes
        self.writeTimeout = writeTimeout
        self.maxPipelinedRequests = maxPipelinedRequests
    }
}

/// HTTP/1.1, hardened against clients that misbehave on purpose: request deadlines
/// ([`RequestDeadlines`]), a share of connection slots kept from connections that never complete
/// a request ([`ConnectionAdmission`]), HTTP/1.0 and over-limit bodies closed after their answer
/// ([`ConnectionPersistence`]), and the front end's error body for requests the parser refuses
/// ([`MalformedRequestAnswer`]). NIO's HTTP/1 codec and Hummingbird's conversion to the HTTP types
/// and connection state (idle timeout, graceful close) as Hummingbird sets them up; requests are
/// answered by [`HTTP1RequestServer`] at the end of the pipeline.
package struct GatewayHTTP1Channel: ServerChildChannel {
    package struct Value: ServerChildChannelValue {
        package let channel: any Channel
    }

    let router: RouterCall
    let limits: ConnectionLimits
    let admission: ConnectionAdmission
    let answers: RefusalAnswers

    package init(router: RouterCall, limits: ConnectionLimits, admission: ConnectionAdmission, answers: RefusalAnswers) {
        self.router = router
        self.limits = limits
        self.admission = admission
        self.answers = answers
    }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        admission.admit(channel)
        let deadlines: RequestDeadlines
        do {
            deadlines = try installByteGuards(on: channel)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return setupHTTP(on: channel, deadlines: deadlines, logger: logger)
    }

    /// The guards that watch the connection's bytes, first in the pipeline: under TLS they see
    /// the ciphertext, so a handshake trickled byte by byte runs out of the head's time as well.
    package func installByteGuards(on channel: any Channel) throws -> RequestDeadlines {
        let deadlines = RequestDeadlines(limits: limits.requestTime, notices: admission.notices)
        try channel.pipeline.syncOperations.addHandler(
            RequestBytesWatcher(deadlines, admission: admission),
            position: .first
        )
        try channel.pipeline.syncOperations.addHandler(
            SlowReaderGuard(writeTimeout: limits.writeTimeout, notices: admission.notices),
            position: .first
        )
        return deadlines
    }

    /// HTTP/1.1 itself, after the byte guards (and after TLS, when there is TLS).
    func setupHTTP(on channel: any Channel, deadlines: RequestDeadlines, logger: Logger) -> EventLoopFuture<Value> {
        let router = router
        return channel.eventLoop.makeCompletedFuture {
            try Self.addHTTPHandlers(
                on: channel,
                limits: limits,
                deadlines: deadlines,
                admission: admission,
                answers: answers,
                logger: logger
            ) {
                request,
                server in
                router.start(Request(head: request.head, body: request.body), on: channel, logger: logger) {
                    server.value.answer($0)
                }
            }
            return Value(channel: channel)
        }
    }

    /// The handlers, answering through `serve`: the request fuzzer installs them with its own.
    package static func addHTTPHandlers(
        on channel: any Channel,
        limits: ConnectionLimits,
        deadlines: RequestDeadlines,
        admission: ConnectionAdmission,
        answers: RefusalAnswers,
        logger: Logger,
        serve: @escaping HTTP1RequestServer.Serve
    ) throws {
        // Hummingbird's HTTP/1 decoder limits.
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = 80 * 1024
        decoderLimits.maxHeaderListSize = 80 * 1024
        decoderLimits.maxHeaderFieldCount = 1000
        let pipeline = channel.pipeline.syncOperations
        try pipeline.configureHTTPServerPipeline(
            withPipeliningAssistance: false,
            withErrorHandling: false,
            withOutboundHeaderValidation: false,
            withEncoderConfiguration: .init(),
            withDecoderLimitConfiguration: decoderLimits
        )
        // Needs the HTTP/1 types, so it goes before the conversion to the HTTP types.
        try pipeline.addHandler(ConnectionPersistence(maxBodyBytes: limits.maxBodyBytes, answers: answers))
        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
        try pipeline.addHandler(MalformedRequestAnswer(answers: answers))
        try pipeline.addHandler(RequestPartsWatcher(deadlines, admission: admission, maxPipelined: limits.maxPipelinedRequests))
        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: .init(limits.idleTimeout), logger: logger))
        try pipeline.addHandler(HTTP1RequestServer(maxBodyBytes: limits.maxBodyBytes, serve: serve))
    }

    package func handle(value: Value, logger: Logger) async {
        await RouterCall.untilClosed(value.channel)
    }
}
