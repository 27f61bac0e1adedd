import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What a connection may take of the server, from the `server.*` configuration.
struct ConnectionLimits: Sendable {
    var requestTime: RequestTimeLimits
    var idleTimeout: TimeAmount
    var maxBodyBytes: Int
    /// A connection whose responses wait unread this long is closed.
    var writeTimeout: TimeAmount
    /// Requests a client may send ahead of their responses.
    var maxPipelinedRequests: Int
}

extension GatewayConfiguration.ServerLimits {
    var connectionLimits: ConnectionLimits {
        ConnectionLimits(
            requestTime: RequestTimeLimits(
                head: .seconds(Int64(headerTimeoutSeconds)),
                body: .seconds(Int64(bodyTimeoutSeconds)),
                minBodyBytesPerSecond: minBodyBytesPerSecond
            ),
            idleTimeout: .seconds(Int64(idleTimeoutSeconds)),
            maxBodyBytes: maxBodyBytes,
            writeTimeout: .seconds(Int64(writeTimeoutSeconds)),
            maxPipelinedRequests: maxPipelinedRequests
        )
    }
}

/// HTTP/1.1 as Hummingbird serves it, hardened against clients that misbehave on purpose:
/// request deadlines ([`RequestDeadlines`]), a share of connection slots kept from connections
/// that never complete a request ([`ConnectionAdmission`]), HTTP/1.0 and over-limit bodies closed
/// after their answer ([`ConnectionPersistence`]), and MPGS error bodies for requests the parser
/// refuses ([`MalformedRequestAnswer`]).
struct GatewayHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let admission: ConnectionAdmission

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
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
    func installByteGuards(on channel: any Channel) throws -> RequestDeadlines {
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
        let maxBodyBytes = limits.maxBodyBytes
        let admission = admission
        let http = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [
                    MalformedRequestAnswer(),
                    RequestPartsWatcher(deadlines, admission: admission, maxPipelined: limits.maxPipelinedRequests),
                ],
                idleTimeout: limits.idleTimeout
            )
        )
        // HTTP1Channel's setup completes at once, on the event loop, so the handler below is in
        // place before the first byte is read. It needs the HTTP/1 types, so it goes just before
        // Hummingbird's conversion to the HTTP types.
        return http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let conversion = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionPersistence(maxBodyBytes: maxBodyBytes),
                position: .before(conversion)
            )
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}
