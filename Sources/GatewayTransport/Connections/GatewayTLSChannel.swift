import GatewayHTTP
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// HTTPS: TLS from the current (reloadable) context, then HTTP/2 or HTTP/1.1 as ALPN decides.
/// HTTP/1.1 is the hardened channel of plain HTTP; both keep its byte guards, which sit before
/// TLS and so also time the handshake. HTTP/2 ([`GatewayHTTP2Channel`]) gets the connection idle
/// timeout and a per-stream request deadline, and the answers it holds for clients that give no
/// flow-control window are bounded ([`HTTP2ResponseBudget`]); its framing layer bounds streams
/// and headers.
package struct GatewayTLSChannel: ServerChildChannel {
    package enum Negotiated: Sendable {
        case http1(GatewayHTTP1Channel.Value)
        case http2
    }

    package struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        package let channel: any Channel
    }

    let http1: GatewayHTTP1Channel
    let http2: GatewayHTTP2Channel
    /// The TLS context a new connection takes: the current one, when the files are reloaded.
    let context: @Sendable () -> NIOSSLContext
    /// On the certificate listener: every presented chain passes the handshake, so that an
    /// unknown or expired certificate gets the gateway's 401 body rather than a TLS alert.
    let acceptsAnyClientCertificate: Bool

    package init(
        router: RouterCall,
        limits: ConnectionLimits,
        admission: ConnectionAdmission,
        answers: RefusalAnswers,
        context: @escaping @Sendable () -> NIOSSLContext,
        http2Budget: HTTP2ResponseBudget,
        acceptsAnyClientCertificate: Bool = false
    ) {
        http1 = GatewayHTTP1Channel(router: router, limits: limits, admission: admission, answers: answers)
        http2 = GatewayHTTP2Channel(
            router: router,
            limits: .init(
                requestTime: limits.requestTime.head + limits.requestTime.body,
                idleTimeout: limits.idleTimeout,
                gracefulCloseTimeout: .seconds(5),
                maxBodyBytes: limits.maxBodyBytes,
                writeTimeout: limits.writeTimeout
            ),
            admission: admission,
            budget: http2Budget
        )
        self.context = context
        self.acceptsAnyClientCertificate = acceptsAnyClientCertificate
    }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.admission.admit(channel)
        let http1 = http1
        let http2 = http2
        do {
            let deadlines = try http1.installByteGuards(on: channel)
            let context = context()
            let tls =
                acceptsAnyClientCertificate
                ? NIOSSLServerHandler(context: context) { _, promise in promise.succeed(.certificateVerified) }
                : NIOSSLServerHandler(context: context)
            try channel.pipeline.syncOperations.addHandler(tls)
            // A client that connects and never finishes the handshake holds no slot for ever.
            let handshakeLimit = http1.limits.requestTime.head
            let notices = http1.admission.notices
            let handshakeTimer = channel.eventLoop.scheduleTask(in: handshakeLimit) {
                notices.notice("TLS handshake not complete within \(handshakeLimit.nanoseconds / 1_000_000_000)s")
                channel.close(promise: nil)
            }
            let negotiation = NIOTypedApplicationProtocolNegotiationHandler<Negotiated> { result in
                handshakeTimer.cancel()
                deadlines.handshakeFinished()
                switch result {
                case .negotiated("h2"):
                    // Streams carry their own deadlines: the connection-wide ones would see one
                    // endless request.
                    deadlines.disable()
                    return channel.eventLoop.makeCompletedFuture {
                        try http2.setup(channel: channel, logger: logger)
                        return .http2
                    }
                case .negotiated("http/1.1"), .fallback:
                    return http1.setupHTTP(on: channel, deadlines: deadlines, logger: logger).map { .http1($0) }
                case .negotiated:
                    return channel.close().flatMap { channel.eventLoop.makeFailedFuture(NIOHTTP2Errors.invalidALPNToken()) }
                }
            }
            try channel.pipeline.syncOperations.addHandler(negotiation)
            channel.closeFuture.whenComplete { _ in handshakeTimer.cancel() }
            return channel.eventLoop.makeSucceededFuture(
                Value(negotiated: negotiation.protocolNegotiationResult, channel: channel)
            )
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    package func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http1(let http1Value): await http1.handle(value: http1Value, logger: logger)
            case .http2: await RouterCall.untilClosed(value.channel)
            }
        } catch {
            logger.debug("TLS connection closed before a protocol was negotiated: \(error)")
        }
    }
}
