import ApplePayToken
import GatewayCore
import WireJSON

/// The "Retrieve Order" response: the order as it stands now, with every transaction on it,
/// each rendered from its stored receipt as its response was.
enum OrderRetrieval {
    static func json(merchantId: String, orderId: String, order: StoredOrder, transactions: [TransactionReceipt]) -> JSONValue {
        var body = order.state.jsonFields(orderId: orderId, lastUpdatedTime: order.lastUpdatedTime)
        body["merchant"] = .string(merchantId)
        body["result"] = .string("SUCCESS")
        body["transaction"] = .array(transactions.map { TransactionResponse($0).jsonValue })
        // The order as its latest transaction described it: billing, customer, ... at the top, and
        // the order's own fields (description, item, ...) beside its id and amounts.
        var described = transactions.last.map { RequestCatalogue.transactionRequest.orderEcho(of: $0.echo.json) } ?? .object([:])
        if case .object(var groups) = described, case .object(let orderFields)? = groups.removeValue(forKey: "order") {
            described = JSONValue.object(groups).overlaid(with: .object(orderFields))
        }
        return described.overlaid(with: .object(body))
    }
}
