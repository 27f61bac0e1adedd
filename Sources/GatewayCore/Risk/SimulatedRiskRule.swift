/// The simulated risk service's merchant rules: documented test triggers (an amount, a card
/// number, a billing country), as the acquirer simulator's outcomes are (Deploy/docs/api.md,
/// "Risk assessment"). The raw value is the rule's `id` on the wire and in the store.
package enum SimulatedRiskRule: String, Sendable, Hashable, CaseIterable {
    case reviewAmount = "SIM_REVIEW_AMOUNT"
    case rejectAmount = "SIM_REJECT_AMOUNT"
    case reviewCard = "SIM_REVIEW_CARD"
    case rejectCard = "SIM_REJECT_CARD"
    case reviewCountry = "SIM_REVIEW_COUNTRY"
    case rejectCountry = "SIM_REJECT_COUNTRY"

    /// Amount triggers, matched as the acquirer's amount table is (71.71 or 7171.00 by default).
    package static let reviewAmountValue: Int64 = 7171
    package static let rejectAmountValue: Int64 = 7272
    /// Card triggers: Luhn-valid numbers on no other simulator list.
    package static let reviewCardNumber = "5123450000007771"
    package static let rejectCardNumber = "4508750000008887"
    /// Billing-country triggers (`billing.address.country`, ISO 3166 alpha-3): uninhabited places.
    package static let reviewCountryCode = "ATA"
    package static let rejectCountryCode = "BVT"

    package var recommendation: RiskRuleRecommendation {
        switch self {
        case .reviewAmount, .reviewCard, .reviewCountry: .review
        case .rejectAmount, .rejectCard, .rejectCountry: .reject
        }
    }

    /// `rule[].name`: what the rule checks, named as the gateway names its merchant rules
    /// (MERCHANT_BIN_RANGE, SUSPECT_CARD_LIST, ... in a recorded version 45 response).
    package var name: String {
        switch self {
        case .reviewAmount, .rejectAmount: "MERCHANT_ORDER_AMOUNT"
        case .reviewCard, .rejectCard: "SUSPECT_CARD_LIST"
        case .reviewCountry, .rejectCountry: "MERCHANT_BILLING_COUNTRY"
        }
    }

    /// What the rule matched on, as the gateway's `rule[].data` shows it (the card's BIN, never
    /// its number; the billing country; the amount); nil when the payment says nothing of it.
    package func data(amount: Amount, maskedCardNumber: String, billingCountry: String?) -> String? {
        switch self {
        case .reviewAmount, .rejectAmount: amount.text
        case .reviewCard, .rejectCard: String(maskedCardNumber.prefix(6))
        case .reviewCountry, .rejectCountry: billingCountry
        }
    }

    /// `rule[].score`.
    package var score: Int { recommendation == .reject ? 100 : 60 }
}

/// What the risk rules are asked about a payment.
package struct RiskScreeningInput: Sendable {
    package var amount: Amount
    package var cardNumber: String
    /// `billing.address.country`, when the request has one.
    package var billingCountry: String?

    package init(amount: Amount, cardNumber: String, billingCountry: String?) {
        self.amount = amount
        self.cardNumber = cardNumber
        self.billingCountry = billingCountry
    }
}

/// A merchant's risk rules, on (`merchant.<ID>.risk`): every AUTHORIZE, PAY and VERIFY is
/// assessed before the acquirer sees it. A rejecting rule wins over one asking for review.
package struct RiskScreening: Sendable {
    package var amountMatching: SimulatedAcquirer.AmountMatching

    package init(amountMatching: SimulatedAcquirer.AmountMatching = .both) {
        self.amountMatching = amountMatching
    }

    package func assess(_ input: RiskScreeningInput) -> RiskAssessment {
        let matched = SimulatedRiskRule.allCases.filter { matches($0, input) }
        let rule = matched.first { $0.recommendation == .reject } ?? matched.first
        return RiskAssessment(rule: rule)
    }

    private func matches(_ rule: SimulatedRiskRule, _ input: RiskScreeningInput) -> Bool {
        switch rule {
        case .reviewAmount: matches(input.amount, SimulatedRiskRule.reviewAmountValue)
        case .rejectAmount: matches(input.amount, SimulatedRiskRule.rejectAmountValue)
        case .reviewCard: input.cardNumber == SimulatedRiskRule.reviewCardNumber
        case .rejectCard: input.cardNumber == SimulatedRiskRule.rejectCardNumber
        case .reviewCountry: input.billingCountry == SimulatedRiskRule.reviewCountryCode
        case .rejectCountry: input.billingCountry == SimulatedRiskRule.rejectCountryCode
        }
    }

    private func matches(_ amount: Amount, _ value: Int64) -> Bool {
        let byMinorUnits = amount.minorUnits == value
        let byWholeAmount = amount.isWhole(value)
        return switch amountMatching {
        case .both: byMinorUnits || byWholeAmount
        case .minorUnits: byMinorUnits
        case .wholeAmount: byWholeAmount
        }
    }
}
