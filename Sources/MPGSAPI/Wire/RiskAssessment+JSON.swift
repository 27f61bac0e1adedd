import GatewayCore
import WireJSON

/// `risk`: the merchant's risk rules' verdict, where real shop modules read it
/// (`risk.response.gatewayCode`, `risk.response.review.decision`, `risk.response.rule[]`), on a
/// transaction and, for its order, at the top of Retrieve Order.
extension RiskAssessment {
    /// As the transaction `receipt` shows it: the rule's `data` is what the payment matched on.
    static func json(_ receipt: TransactionReceipt) -> JSONValue? {
        guard let risk = receipt.risk else { return nil }
        let country = receipt.echo.json["billing"]?["address"]?["country"]
        let data = risk.rule?.data(
            amount: receipt.amount,
            maskedCardNumber: receipt.card.maskedNumber,
            billingCountry: country?.stringValue
        )
        return risk.json(ruleData: data)
    }

    func json(ruleData: String?) -> JSONValue {
        var review: [String: JSONValue] = ["decision": .string(review.decision.rawValue)]
        if let time = self.review.time { review["lastUpdatedTime"] = .string(Timestamp.string(time)) }
        if let operatorName = self.review.operatorName { review["userId"] = .string(operatorName) }
        var response: [String: JSONValue] = [
            "gatewayCode": .string(gatewayCode.rawValue), "totalScore": .integer(Int64(totalScore)),
            "review": .object(review),
        ]
        if let rule {
            var matched: [String: JSONValue] = [
                "id": .string(rule.rawValue), "name": .string(rule.name), "type": .string("MERCHANT_RULE"),
                "recommendation": .string(rule.recommendation.rawValue), "score": .integer(Int64(rule.score)),
            ]
            if let ruleData { matched["data"] = .string(ruleData) }
            response["rule"] = .array([.object(matched)])
        }
        return .object(["response": .object(response)])
    }
}
