import ApplePayToken

/// The "Retrieve Order" response: the order as it stands now, with every transaction response
/// recorded on it.
enum OrderRetrieval {
    static func json(merchantId: String, orderId: String, order: StoredOrder, transactions: [[UInt8]]) -> JSONValue {
        let currency = Currency(code: order.currency)
        func money(_ minorUnits: Int64) -> JSONValue {
            currency.map { .double(Amount(minorUnits: minorUnits, currency: $0).jsonNumber) } ?? .integer(minorUnits)
        }
        var body: [String: JSONValue] = [
            "merchant": .string(merchantId), "result": .string("SUCCESS"), "id": .string(orderId),
            "amount": money(order.amountMinorUnits), "currency": .string(order.currency),
            "merchantAmount": money(order.amountMinorUnits), "merchantCurrency": .string(order.currency),
            "status": .string(order.status), "creationTime": .string(Timestamp.string(order.creationTime)),
            "lastUpdatedTime": .string(Timestamp.string(order.lastUpdatedTime)),
            "totalAuthorizedAmount": money(order.totalAuthorizedMinorUnits),
            "totalCapturedAmount": money(order.totalCapturedMinorUnits),
            "totalRefundedAmount": money(order.totalRefundedMinorUnits), "totalDisbursedAmount": money(0),
            "transaction": .array(transactions.compactMap { try? JSONValue(parsing: $0) }),
        ]
        if let walletProvider = order.walletProvider { body["walletProvider"] = .string(walletProvider) }
        if let reference = order.reference { body["reference"] = .string(reference) }
        return .object(body)
    }
}
