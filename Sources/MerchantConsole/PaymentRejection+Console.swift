import GatewayCore

/// The payment rules' refusals, worded for an operator acting from the order page.
extension PaymentRejection {
    var consoleWording: String {
        switch self {
        case .transactionIdReused: "This form was already used for another request. Open the order again."
        case .orderNotFound(let orderId): "There is no order \(orderId) for this merchant."
        case .orderAlreadySucceeded: "The order already has a successful payment."
        case .orderChanged: "The order kept changing while this was decided. Try again."
        case .orderCurrencyUnknown(let code): "The order's currency \(code) is no longer supported."
        case .amountMissing: "Give an amount."
        case .currencyMismatch(_, let orderCurrency): "The amount must be in the order's currency, \(orderCurrency.code)."
        case .nothingToCapture: "There is no authorization left to capture on this order."
        case .nothingCaptured: "Nothing has been captured on this order, so nothing can be refunded."
        case .refundTargetNotFound(let target): "Transaction \(target) is not a capture or payment that can be refunded."
        case .exceedsAvailable(let operation, let amount, let available):
            "\(operation.rawValue) of \(amount.text) is more than the \(available.text) available."
        case .nothingToVoid: "That transaction cannot be voided (failed, already voided, or money has moved since)."
        case .token: "The Apple Pay token was refused."
        case .authentication: "The payment's 3-D Secure authentication was refused."
        case .threeDS1: "The payment's 3-D Secure 1 authentication (3DSecureId) was refused."
        case .nothingToUpdate(let status): "An order that is \(status.rawValue) has no authorization to update."
        case .updateBelowCaptured(let amount, let captured):
            "The new total \(amount.text) is less than the \(captured.text) captured."
        case .riskReviewRejected: "The payment was rejected in its risk review: only a void or a refund may follow."
        }
    }
}
