import ApplePayToken

/// The "Retrieve Order" response: the order as it stands now, with every transaction response
/// recorded on it.
enum OrderRetrieval {
    static func json(merchantId: String, orderId: String, order: StoredOrder, transactions: [[UInt8]]) -> JSONValue {
        var body = order.state.jsonFields(orderId: orderId, lastUpdatedTime: order.lastUpdatedTime)
        body["merchant"] = .string(merchantId)
        body["result"] = .string("SUCCESS")
        body["transaction"] = .array(transactions.compactMap { try? JSONValue(parsing: $0) })
        return .object(body)
    }
}
