import GatewayCore
import Hummingbird

/// Issue 64: the rules of payments in a series, as MPGS field errors.
extension MerchantInitiatedRejection: HTTPResponseError {
    var gatewayError: GatewayError {
        switch self {
        case .agreementMissing:
            GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation: "A merchant-initiated payment (transaction.source MERCHANT) names its agreement.id or a referenceOrderId",
                field: "agreement.id",
                validationType: .missing
            )
        case .securityCodeSent:
            .invalidValue(
                "sourceOfFunds.provided.card.securityCode",
                "***",
                "A merchant-initiated payment carries no card security code: the payer is not present"
            )
        case .cardNotStored(let storedOnFile):
            .invalidValue(
                "sourceOfFunds.provided.card.storedOnFile",
                storedOnFile.rawValue,
                "A merchant-initiated payment pays with stored card details: STORED"
            )
        case .referenceOrderNotFound(let orderId):
            .invalidValue("referenceOrderId", orderId, "No order with this ID exists for this merchant")
        }
    }

    package var status: HTTPResponse.Status { gatewayError.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try gatewayError.response(from: request, context: context)
    }
}
