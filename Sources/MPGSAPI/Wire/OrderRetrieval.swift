import ApplePayToken
import GatewayCore
import WireJSON

/// The "Retrieve Order" response: the order as it stands now, with every transaction on it,
/// each rendered from its stored receipt as its response was.
enum OrderRetrieval {
    /// `authentications` are the order's authentication transactions as rendered, listed first
    /// (they come before the payment).
    static func json(
        merchantId: String,
        orderId: String,
        order: StoredOrder,
        transactions: [TransactionReceipt],
        authentications: [JSONValue] = []
    ) -> JSONValue {
        var body = order.state.jsonFields(orderId: orderId, lastUpdatedTime: order.lastUpdatedTime)
        body["merchant"] = .string(merchantId)
        body["result"] = .string("SUCCESS")
        // An authentication was made before the order had its description: shown with it, as in the
        // payment that followed (clients read `transaction[0].order.description`).
        let description = transactions.last.flatMap { RequestCatalogue.transactionRequest.orderEcho(of: $0.echo.json)["order"]?["description"] }
        let listed = authentications.map { authentication -> JSONValue in
            guard let description, case .object(var members) = authentication, case .object(var order)? = members["order"],
                order["description"] == nil
            else { return authentication }
            order["description"] = description
            members["order"] = .object(order)
            return .object(members)
        }
        body["transaction"] = .array(listed + transactions.map { TransactionResponse($0).jsonValue })
        // The order's risk verdict is its payment's (follow-ons are not assessed).
        if let risk = transactions.last(where: { $0.risk != nil }).flatMap(RiskAssessment.json) { body["risk"] = risk }
        // Issue 64: the provider a browser payment went through, and the payer's interaction with it.
        if let paid = transactions.first(where: { $0.browserPayment != nil }), let type = paid.browserPayment {
            body["sourceOfFunds"] = .object(["type": .string("BROWSER_PAYMENT"), "browserPayment": .object(["type": .string(type.rawValue)])])
            if let browserPayment = paid.echo.json["browserPayment"] { body["browserPayment"] = browserPayment }
        }
        if let authentication = transactions.last(where: { $0.authentication != nil })?.authentication {
            body["authenticationStatus"] = .string(authentication.status.rawValue)
        }
        // The order as its latest transaction described it: billing, customer, ... at the top, and
        // the order's own fields (description, item, ...) beside its id and amounts.
        var described = transactions.last.map { RequestCatalogue.transactionRequest.orderEcho(of: $0.echo.json) } ?? .object([:])
        if case .object(var groups) = described, case .object(let orderFields)? = groups.removeValue(forKey: "order") {
            described = JSONValue.object(groups).overlaid(with: .object(orderFields))
        }
        return described.overlaid(with: .object(body))
    }

    /// An order that holds authentications only (no payment yet): as its latest one leaves it.
    static func json(authenticated latest: PayerAuthentication, authentications: [PayerAuthentication], acsURL: String) -> JSONValue {
        let amount = latest.amount
        let zero = JSONValue.double(Amount(minorUnits: 0, currency: amount.currency).majorUnits)
        return .object([
            "id": .string(latest.orderId), "merchant": .string(latest.merchantId), "result": .string("SUCCESS"),
            "amount": .double(amount.majorUnits), "currency": .string(amount.currency.code),
            "status": .string(latest.status.orderStatus), "authenticationStatus": .string(latest.status.rawValue),
            "creationTime": .string(Timestamp.string(authentications.first?.createdAt ?? latest.createdAt)),
            "lastUpdatedTime": .string(Timestamp.string(latest.updatedAt)),
            "totalAuthorizedAmount": zero, "totalCapturedAmount": zero, "totalRefundedAmount": zero,
            "transaction": .array(authentications.map { AuthenticationResponse.json($0, acsURL: acsURL) }),
        ])
    }
}
