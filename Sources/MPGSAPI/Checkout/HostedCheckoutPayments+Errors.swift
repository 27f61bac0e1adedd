import GatewayCore

extension HostedCheckoutPayments {
    /// A refusal as the page and its script show it: the MPGS error the same request would get
    /// through the API; nil for a failure of the gateway itself (the caller logs it).
    package static func gatewayError(for error: any Error) -> GatewayError? {
        switch error {
        case let error as GatewayError: error
        case let rejection as PaymentRejection: rejection.gatewayError
        case let rejection as SessionRejection: rejection.gatewayError
        case let rejection as CardTokenRejection: rejection.gatewayError
        case let rejection as AuthenticationRejection: rejection.gatewayError
        case is StoreUnavailable: GatewayError.serverBusy
        default: nil
        }
    }
}

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
