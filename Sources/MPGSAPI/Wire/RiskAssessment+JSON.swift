import GatewayCore
import WireJSON

/// `risk`: the merchant's risk rules' verdict, where real shop modules read it
/// (`risk.response.gatewayCode`, `risk.response.review.decision`, `risk.response.rule[]`), on a
/// transaction and, for its order, at the top of Retrieve Order.
extension RiskAssessment {
    var json: JSONValue {
        var review: [String: JSONValue] = ["decision": .string(review.decision.rawValue)]
        if let time = self.review.time { review["lastUpdatedTime"] = .string(Timestamp.string(time)) }
        if let operatorName = self.review.operatorName { review["userId"] = .string(operatorName) }
        var response: [String: JSONValue] = [
            "gatewayCode": .string(gatewayCode.rawValue), "totalScore": .integer(Int64(totalScore)),
            "review": .object(review),
        ]
        if let rule {
            response["rule"] = .array([
                .object([
                    "id": .string(rule.rawValue), "name": .string(rule.name), "type": .string("MERCHANT_RULE"),
                    "recommendation": .string(rule.recommendation.rawValue), "score": .integer(Int64(rule.score)),
                ])
            ])
        }
        return .object(["response": .object(response)])
    }
}
