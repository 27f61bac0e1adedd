/// CAPTURE, REFUND or VOID on an existing order, validated.
struct FollowOnRequest: Sendable {
    enum Operation: String, Sendable {
        case capture = "CAPTURE"
        case refund = "REFUND"
        case void = "VOID"
    }

    var operation: Operation
    /// CAPTURE and REFUND: how much.
    var amount: Amount?
    /// VOID (required) and REFUND (optional): the transaction it applies to.
    var targetTransactionId: String?
    var transactionReference: String?
    var transactionSource: String

    init(reading reader: RequestReader, operation: Operation) throws(GatewayError) {
        self.operation = operation
        transactionReference = reader.text("transaction.reference")
        transactionSource = reader.text("transaction.source") ?? "INTERNET"
        targetTransactionId = reader.text("transaction.targetTransactionId")
        switch operation {
        case .void:
            guard targetTransactionId != nil else { throw GatewayError.missing("transaction.targetTransactionId") }
        case .capture, .refund:
            let currencyCode = try reader.requiredText("transaction.currency")
            guard let currency = Currency(code: currencyCode) else {
                throw GatewayError.invalidValue("transaction.currency", currencyCode, "Currency is not supported")
            }
            let text = try reader.requiredText("transaction.amount")
            do {
                amount = try Amount(parsing: text, currency: currency)
            } catch .zero {
                throw GatewayError.invalidValue(
                    "transaction.amount",
                    text,
                    "Transaction or order amount must be greater than zero"
                )
            } catch {
                throw GatewayError.invalidValue(
                    "transaction.amount",
                    text,
                    "Amount must be a decimal number with at most \(currency.exponent) decimal places for \(currency.code)"
                )
            }
        }
    }
}
