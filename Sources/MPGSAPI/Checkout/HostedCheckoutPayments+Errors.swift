import GatewayCore

extension GatewayError {
    /// What the browser endpoints answer for a session id that names no live checkout.
    package static let unknownCheckoutSession = GatewayError(
        status: .notFound,
        cause: .invalidRequest,
        explanation: "No checkout session with this id: it is unknown, has expired or has been paid",
        field: "session.id",
        validationType: .invalid
    )

    /// A browser request the gateway refuses, naming the field at fault.
    package static func invalidBrowserRequest(_ field: String?, _ explanation: String) -> GatewayError {
        GatewayError(
            status: .badRequest,
            cause: .invalidRequest,
            explanation: explanation,
            field: field,
            validationType: field == nil ? nil : .invalid
        )
    }
}
