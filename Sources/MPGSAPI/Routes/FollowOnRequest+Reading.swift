import GatewayCore

extension FollowOnRequest {
    /// Validates a CAPTURE, REFUND, VOID or UPDATE_AUTHORIZATION body, with MPGS errors naming the field.
    static func reading(_ reader: RequestReader, operation: Operation) throws(GatewayError) -> FollowOnRequest {
        let targetTransactionId = reader.text("transaction.targetTransactionId")
        var amount: Amount?
        switch operation {
        case .void:
            guard targetTransactionId != nil else { throw GatewayError.missing("transaction.targetTransactionId") }
        case .capture, .refund, .updateAuthorization:
            let currencyCode = try reader.requiredText("transaction.currency")
            guard let currency = Currency(code: currencyCode) else {
                throw GatewayError.invalidValue("transaction.currency", currencyCode, "Currency is not supported")
            }
            amount = try Amount.reading(reader, "transaction.amount", currency)
        }
        var request = FollowOnRequest(
            operation: operation,
            amount: amount,
            targetTransactionId: targetTransactionId,
            transactionReference: reader.text("transaction.reference"),
            transactionSource: reader.text("transaction.source") ?? "INTERNET"
        )
        request.notificationURL = reader.text("order.notificationUrl")
        return request
    }
}

extension Amount {
    /// A positive amount from a request field, with MPGS's messages for zero and bad decimals.
    static func reading(_ reader: RequestReader, _ field: String, _ currency: Currency) throws(GatewayError) -> Amount {
        let text = try reader.requiredText(field)
        do {
            return try Amount(parsing: text, currency: currency)
        } catch .zero {
            throw GatewayError.invalidValue(field, text, "Transaction or order amount must be greater than zero")
        } catch {
            throw GatewayError.invalidValue(
                field,
                text,
                "Amount must be a decimal number with at most \(currency.exponent) decimal places for \(currency.code)"
            )
        }
    }
}
