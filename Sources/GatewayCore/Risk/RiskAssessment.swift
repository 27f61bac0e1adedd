import Foundation

/// MPGS's `risk.response.gatewayCode`: what the merchant's risk rules made of a payment.
package enum RiskGatewayCode: String, Sendable, Hashable, CaseIterable {
    case accepted = "ACCEPTED"
    /// Assessed by no rule (the gateway could not reach the risk service); never simulated.
    case notChecked = "NOT_CHECKED"
    /// Not sent to the acquirer: the transaction's `response.gatewayCode` is BLOCKED.
    case rejected = "REJECTED"
    /// Processed, and held for a person to accept or reject in Merchant Administration.
    case reviewRequired = "REVIEW_REQUIRED"
}

/// MPGS's `risk.response.review.decision`.
package enum RiskReviewDecision: String, Sendable, Hashable, CaseIterable {
    case notRequired = "NOT_REQUIRED"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case rejected = "REJECTED"
}

/// MPGS's `risk.response.rule[].recommendation`.
package enum RiskRuleRecommendation: String, Sendable, Hashable, CaseIterable {
    case accept = "ACCEPT"
    case noAction = "NO_ACTION"
    case review = "REVIEW"
    case reject = "REJECT"
}

/// The review of a REVIEW_REQUIRED payment: pending until an operator decides.
package struct RiskReview: Sendable, Hashable {
    package var decision: RiskReviewDecision
    /// The operator who decided (`risk.response.review.userId`); nil until someone has.
    package var operatorName: String?
    /// When (`risk.response.review.lastUpdatedTime`); nil until someone has.
    package var time: Date?

    package init(decision: RiskReviewDecision, operatorName: String? = nil, time: Date? = nil) {
        self.decision = decision
        self.operatorName = operatorName
        self.time = time
    }
}

/// A payment's risk assessment, as `risk.response` reports it: the verdict, the rule that gave it
/// (none when every rule passed) and its review.
package struct RiskAssessment: Sendable, Hashable {
    package var gatewayCode: RiskGatewayCode
    package var rule: SimulatedRiskRule?
    package var review: RiskReview

    package init(gatewayCode: RiskGatewayCode, rule: SimulatedRiskRule?, review: RiskReview) {
        self.gatewayCode = gatewayCode
        self.rule = rule
        self.review = review
    }

    /// The verdict a rule gives (nil: no rule matched), its review pending when it asks for one.
    package init(rule: SimulatedRiskRule?) {
        switch rule?.recommendation {
        case .reject?: self.init(gatewayCode: .rejected, rule: rule, review: RiskReview(decision: .notRequired))
        case .review?: self.init(gatewayCode: .reviewRequired, rule: rule, review: RiskReview(decision: .pending))
        default: self.init(gatewayCode: .accepted, rule: rule, review: RiskReview(decision: .notRequired))
        }
    }

    /// `risk.response.totalScore`: the matched rule's score, 0 when none matched.
    package var totalScore: Int { rule?.score ?? 0 }

    /// Whether an operator may still accept or reject the payment.
    package var awaitsReview: Bool { gatewayCode == .reviewRequired && review.decision == .pending }

    /// The assessment after an operator's decision; nil when there is nothing to review (not
    /// REVIEW_REQUIRED, or decided already: a decision is final).
    package func reviewed(_ decision: RiskReviewDecision, by operatorName: String, at time: Date) -> RiskAssessment? {
        guard awaitsReview, decision == .accepted || decision == .rejected else { return nil }
        var after = self
        after.review = RiskReview(decision: decision, operatorName: operatorName, time: time)
        return after
    }
}
