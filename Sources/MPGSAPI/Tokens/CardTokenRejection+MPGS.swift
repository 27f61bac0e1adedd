import GatewayCore
import Hummingbird

/// The one place where the core's gateway-token rejections become MPGS error bodies.
extension CardTokenRejection: HTTPResponseError {
    /// As Create or Update, Retrieve and Delete Token answer: the token is the resource, so one
    /// that is not there is a 404, as a session is.
    var gatewayError: GatewayError {
        switch self {
        case .notFound:
            .notFound("Token not found")
        case .preservedCardChanged:
            .invalid(
                "sourceOfFunds.provided.card.number",
                "The token repository preserves the card's first six and last four digits: a token's card number cannot be changed. Create a new token for the new card"
            )
        case .devicePaymentNotStorable:
            GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation:
                    "An Apple Pay payment cannot be stored against a token: its cryptogram pays once. Store the card the payer typed, or pay with the Apple Pay token itself",
                field: "sourceOfFunds.provided.card.devicePayment",
                validationType: .unsupported
            )
        case .devicePaymentWithToken:
            GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation:
                    "A payment with a gateway token pays with the stored card, without a cryptogram: send sourceOfFunds.token or the Apple Pay payment data, not both",
                field: "sourceOfFunds.provided.card.devicePayment",
                validationType: .unsupported
            )
        }
    }

    /// As a payment naming the token answers: the token is one of its fields.
    func inPayment(token: String) -> GatewayError {
        switch self {
        case .notFound:
            .invalidValue("sourceOfFunds.token", token, "No such token in the merchant's token repository")
        case .preservedCardChanged, .devicePaymentNotStorable, .devicePaymentWithToken:
            gatewayError
        }
    }

    package var status: HTTPResponse.Status { gatewayError.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try gatewayError.response(from: request, context: context)
    }
}
