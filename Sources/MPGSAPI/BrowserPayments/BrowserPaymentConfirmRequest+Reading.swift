import GatewayCore

extension BrowserPaymentConfirmRequest {
    /// Validates a CONFIRM_BROWSER_PAYMENT body (issue 64): a new amount comes with its currency.
    static func reading(_ reader: RequestReader) throws(GatewayError) -> BrowserPaymentConfirmRequest {
        var currency: Currency?
        if let code = reader.text("order.currency") {
            guard let known = Currency(code: code) else {
                throw GatewayError.invalidValue("order.currency", code, "Currency is not supported")
            }
            currency = known
        }
        guard reader.text("order.amount") != nil else { return BrowserPaymentConfirmRequest(currency: currency, amount: nil) }
        guard let currency else { throw GatewayError.missing("order.currency") }
        return BrowserPaymentConfirmRequest(currency: currency, amount: try Amount.reading(reader, "order.amount", currency))
    }
}

extension BrowserPaymentError {
    /// CONFIRM_BROWSER_PAYMENT's refusals (UPDATE_BROWSER_PAYMENT's too: no order, no such
    /// payment, not a browser payment), each naming the field that decided it.
    static func confirm(_ refusal: BrowserPaymentConfirmRefusal) -> GatewayError {
        switch refusal {
        case .orderNotFound(let orderId):
            .invalidValue("order.id", orderId, "No order with this id has a browser payment")
        case .transactionNotFound(let transactionId):
            .invalidValue(
                "transaction.id",
                transactionId,
                "No browser payment on this order has this transaction id: use the id INITIATE_BROWSER_PAYMENT used, once the payer has returned from PayPal"
            )
        case .notBrowserPayment(let transactionId):
            .invalidValue("transaction.id", transactionId, "This transaction is not a browser payment")
        case .confirmedAtProvider:
            .invalidValue(
                "browserPayment.paypal.paymentConfirmation",
                PaymentConfirmation.atProvider.rawValue,
                "The payment was initiated for the payer to confirm at PayPal, which completed it: there is nothing to confirm"
            )
        case .cancelledByPayer:
            .invalidValue("apiOperation", BrowserPaymentOperation.confirm.rawValue, "The payer cancelled this payment at PayPal")
        case .alreadyConfirmed:
            .invalidValue(
                "apiOperation",
                BrowserPaymentOperation.confirm.rawValue,
                "The payment was confirmed already; only an identical retry gets that answer"
            )
        case .currencyChanged(let currency, let paymentCurrency):
            .invalidValue(
                "order.currency",
                currency.code,
                "The payment is in \(paymentCurrency.code): a confirmation may change the amount, not the currency"
            )
        }
    }
}
