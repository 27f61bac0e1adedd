import GatewayCore
import Hummingbird

/// The one place where the core's session rejections become MPGS error bodies.
extension SessionRejection: HTTPResponseError {
    /// As Create, Update and Retrieve Session answer: the session is the resource, so one that is
    /// not there is a 404.
    var gatewayError: GatewayError {
        switch self {
        case .notFound:
            .notFound("Session not found or expired")
        case .concurrentUpdate:
            GatewayError(
                status: .conflict,
                cause: .requestRejected,
                explanation: "The session was updated by another request at the same time; retry the request"
            )
        case .notUpdated, .inUse, .staleVersion:
            inPayment
        }
    }

    /// As a payment naming the session answers: the session is one of its fields, so every
    /// rejection is a 400 naming `session.id` or `session.version`.
    var inPayment: GatewayError {
        switch self {
        case .notFound:
            .invalid("session.id", "Session not found or expired")
        case .notUpdated(let status):
            .invalid("session.id", "The session holds no successful update (updateStatus \(status.rawValue))")
        case .inUse, .concurrentUpdate:
            .invalid("session.id", "The session is being used by another payment, or has been updated since it was read")
        case .staleVersion(let version):
            .invalidValue("session.version", version, "The session has been updated since this version")
        }
    }

    package var status: HTTPResponse.Status { gatewayError.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try gatewayError.response(from: request, context: context)
    }
}
