import GatewayCore
import Hummingbird

extension PaymentProcessor {
    /// Where an Apple Pay token sits in an MPGS request: the field every token rejection names.
    static let tokenField = "sourceOfFunds.provided.card.devicePayment.paymentToken"
}

/// The one place where the core's rejections become MPGS error bodies and HTTP statuses.
extension PaymentRejection: HTTPResponseError {
    var gatewayError: GatewayError {
        switch self {
        case .transactionIdReused(let transactionId):
            .invalidValue(
                "transaction.id",
                transactionId,
                "A transaction with this ID already exists on this order with different details"
            )
        case .orderNotFound(let orderId):
            .notFound("No order '\(orderId)'")
        case .orderAlreadySucceeded:
            .request("The order already has a successful payment or authorization; use a new order ID")
        case .orderChanged:
            .lockFailure
        case .orderCurrencyUnknown(let code):
            .request("The order's currency \(code) is not supported")
        case .amountMissing:
            .missing("transaction.amount")
        case .currencyMismatch(let currency, let orderCurrency):
            .invalidValue("transaction.currency", currency.code, "The order's currency is \(orderCurrency.code)")
        case .nothingToCapture:
            .invalidValue("apiOperation", "CAPTURE", "The order has no authorization to capture")
        case .nothingCaptured:
            .invalidValue("apiOperation", "REFUND", "No funds have been captured on this order")
        case .refundTargetNotFound(let target):
            .invalidValue("transaction.targetTransactionId", target, "It names no successful capture or payment on this order")
        case .exceedsAvailable(let operation, let amount, let available):
            .invalidValue(
                "transaction.amount",
                amount.text,
                "The amount exceeds the \(available.text) available to \(operation == .capture ? "capture" : "refund")"
            )
        case .nothingToVoid:
            // MPGS's own words when there is nothing a VOID could undo.
            GatewayError(
                status: .badRequest,
                cause: .invalidRequest,
                explanation: "Value 'VOID' is invalid. There is no transaction to void.",
                field: "apiOperation",
                validationType: .invalid
            )
        case .token(let rejection):
            .tokenRejected(rejection)
        case .nothingToUpdate(let status):
            .invalidValue("apiOperation", "UPDATE_AUTHORIZATION", "The order is \(status.rawValue): it has no authorization to update")
        case .updateBelowCaptured(let amount, let captured):
            .invalidValue(
                "transaction.amount",
                amount.text,
                "The new authorized amount is less than the \(captured.text) already captured"
            )
        case .authentication(let rejection):
            rejection.gatewayError
        case .threeDS1(let rejection):
            rejection.gatewayError
        case .riskReviewRejected(let orderId):
            .request("Order '\(orderId)' was rejected in its risk review: only a VOID or REFUND may follow")
        }
    }

    package var status: HTTPResponse.Status { gatewayError.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try gatewayError.response(from: request, context: context)
    }
}
