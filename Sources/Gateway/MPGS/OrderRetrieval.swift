import ApplePayToken

/// The "Retrieve Order" response: the order as it stands now, with every transaction response
/// recorded on it.
enum OrderRetrieval {
    static func json(merchantId: String, orderId: String, order: StoredOrder, transactions: [[UInt8]]) -> JSONValue {
        var body = order.state.jsonFields(orderId: orderId, lastUpdatedTime: order.lastUpdatedTime)
        body["merchant"] = .string(merchantId)
        body["result"] = .string("SUCCESS")
        let responses = transactions.compactMap { try? JSONValue(parsing: $0) }
        body["transaction"] = .array(responses)
        // The order as its latest response described it: billing, customer, ... at the top, and
        // the order's own fields (description, item, ...) beside its id and amounts.
        var described = responses.last.map(RequestCatalogue.transactionRequest.orderEcho) ?? .object([:])
        if case .object(var groups) = described, case .object(let orderFields)? = groups.removeValue(forKey: "order") {
            described = JSONValue.object(groups).overlaid(with: .object(orderFields))
        }
        return described.overlaid(with: .object(body))
    }
}
