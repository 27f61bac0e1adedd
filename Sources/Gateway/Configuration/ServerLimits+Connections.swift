import GatewayTransport
import NIOCore

extension GatewayConfiguration.ServerLimits {
    /// What the transport lets each connection take, from `server.*`.
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
