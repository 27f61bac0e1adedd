import ApplePayToken

/// The "Retrieve Order" response: the order as it stands now, with every transaction response
/// recorded on it.
enum OrderRetrieval {
    /// A stored response that does not parse fails the request (SERVER_FAILED, logged with a
    /// support code) rather than leave its transaction out of the order without a word.
    static func json(merchantId: String, orderId: String, order: StoredOrder, transactions: [[UInt8]]) throws -> JSONValue {
        var body = order.state.jsonFields(orderId: orderId, lastUpdatedTime: order.lastUpdatedTime)
        body["merchant"] = .string(merchantId)
        body["result"] = .string("SUCCESS")
        let responses = try transactions.map { bytes in
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw UnreadableStoredValue(column: "transactions.response_body", value: "\(bytes.count) bytes that are not JSON")
            }
        }
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
