import Foundation
import GatewayCore
import Testing

/// The simulated risk rules (issue 64), without HTTP or a store: each documented trigger, which
/// verdict wins, the review's one decision, and what a rejected review stops.
@Suite("Risk screening")
struct RiskScreeningTests {
    static let usd = Currency(code: "USD")!

    static func input(minorUnits: Int64 = 1000, card: String = "5123450000000008", country: String? = "USA") -> RiskScreeningInput {
        RiskScreeningInput(amount: Amount(minorUnits: minorUnits, currency: usd), cardNumber: card, billingCountry: country)
    }

    @Test(
        "each documented trigger gives its verdict; anything else is accepted",
        arguments: [
            (input(), RiskGatewayCode.accepted, SimulatedRiskRule?.none, RiskReviewDecision.notRequired),
            (input(minorUnits: 7171), .reviewRequired, .reviewAmount, .pending),
            (input(minorUnits: 717_100), .reviewRequired, .reviewAmount, .pending),
            (input(minorUnits: 7272), .rejected, .rejectAmount, .notRequired),
            (input(minorUnits: 727_200), .rejected, .rejectAmount, .notRequired),
            (input(card: "5123450000007771"), .reviewRequired, .reviewCard, .pending),
            (input(card: "4508750000008887"), .rejected, .rejectCard, .notRequired),
            (input(country: "ATA"), .reviewRequired, .reviewCountry, .pending),
            (input(country: "BVT"), .rejected, .rejectCountry, .notRequired),
            (input(country: nil), .accepted, nil, .notRequired),
        ]
    )
    func triggers(input: RiskScreeningInput, code: RiskGatewayCode, rule: SimulatedRiskRule?, decision: RiskReviewDecision) {
        let assessment = RiskScreening().assess(input)
        #expect(assessment.gatewayCode == code)
        #expect(assessment.rule == rule)
        #expect(assessment.review.decision == decision)
        #expect(assessment.totalScore == (rule?.score ?? 0))
    }

    @Test("a rejecting rule wins over one asking for review")
    func rejectWins() {
        let assessment = RiskScreening().assess(Self.input(minorUnits: 7171, card: "4508750000008887", country: "ATA"))
        #expect(assessment.gatewayCode == .rejected)
        #expect(assessment.rule == .rejectCard)
    }

    @Test("amounts match as the merchant's acquirer simulator is told to")
    func amountMatching() {
        #expect(RiskScreening(amountMatching: .minorUnits).assess(Self.input(minorUnits: 717_100)).gatewayCode == .accepted)
        #expect(RiskScreening(amountMatching: .minorUnits).assess(Self.input(minorUnits: 7171)).gatewayCode == .reviewRequired)
        #expect(RiskScreening(amountMatching: .wholeAmount).assess(Self.input(minorUnits: 7171)).gatewayCode == .accepted)
        #expect(RiskScreening(amountMatching: .wholeAmount).assess(Self.input(minorUnits: 717_100)).gatewayCode == .reviewRequired)
    }

    @Test("the triggers clash with no acquirer simulator amount or test card")
    func noClash() {
        let acquirerAmounts = Set(SimulatedAcquirer.amountTable.map(\.0))
        #expect(!acquirerAmounts.contains(SimulatedRiskRule.reviewAmountValue))
        #expect(!acquirerAmounts.contains(SimulatedRiskRule.rejectAmountValue))
        let threeDSCards = Set(ThreeDSScenario.testCards.map(\.number))
        for card in [SimulatedRiskRule.reviewCardNumber, SimulatedRiskRule.rejectCardNumber] {
            #expect(!threeDSCards.contains(card))
            #expect(TestCardRules.legacyCardNumbers[card] == nil)
        }
    }

    @Test("a review is decided once, by ACCEPTED or REJECTED, and only when one is pending")
    func reviewOnce() throws {
        let held = RiskScreening().assess(Self.input(minorUnits: 7171))
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(held.awaitsReview)
        #expect(held.reviewed(.pending, by: "alice", at: time) == nil)
        #expect(held.reviewed(.notRequired, by: "alice", at: time) == nil)
        let accepted = try #require(held.reviewed(.accepted, by: "alice", at: time))
        #expect(accepted.review == RiskReview(decision: .accepted, operatorName: "alice", time: time))
        #expect(accepted.gatewayCode == .reviewRequired, "the verdict stays; the review records the decision")
        #expect(!accepted.awaitsReview)
        #expect(accepted.reviewed(.rejected, by: "bob", at: time) == nil)
        #expect(RiskScreening().assess(Self.input()).reviewed(.accepted, by: "alice", at: time) == nil)
    }

    @Test(
        "after a rejected review only a VOID or REFUND may follow",
        arguments: [
            (FollowOnRequest.Operation.capture, true), (.updateAuthorization, true), (.void, false), (.refund, false),
        ]
    )
    func rejectedReviewStopsCaptures(operation: FollowOnRequest.Operation, refused: Bool) throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        var receipt = Self.receipt()
        receipt.risk = RiskScreening().assess(Self.input(minorUnits: 7171)).reviewed(.rejected, by: "alice", at: time)
        let transactions = [TransactionSummary(receipt: receipt, voided: false)]
        let request = FollowOnRequest(operation: operation, amount: Amount(minorUnits: 100, currency: Self.usd), targetTransactionId: nil)
        if refused {
            #expect(throws: PaymentRejection.riskReviewRejected("o-1")) {
                try RiskReviewRule.check(request, orderId: "o-1", transactions: transactions)
            }
        } else {
            try RiskReviewRule.check(request, orderId: "o-1", transactions: transactions)
        }
        // Pending or accepted reviews stop nothing.
        receipt.risk = RiskScreening().assess(Self.input(minorUnits: 7171))
        try RiskReviewRule.check(request, orderId: "o-1", transactions: [TransactionSummary(receipt: receipt, voided: false)])
    }

    static func receipt() -> TransactionReceipt {
        let amount = Amount(minorUnits: 7171, currency: usd)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        return TransactionReceipt(
            merchantId: "TESTMERCHANT",
            orderId: "o-1",
            transactionId: "1",
            version: APIVersion.latest,
            transactionType: .authorization,
            amount: amount,
            transactionSource: "INTERNET",
            transactionReference: nil,
            targetTransactionId: nil,
            card: CardDetails(maskedNumber: "512345xxxxxx0008", brand: CardBrand(cardNumber: "5123450000000008"), expiry: nil, nameOnCard: nil),
            outcome: SimulatedAcquirer.describe(.approved, amount: amount),
            order: OrderState(
                amountMinorUnits: 7171,
                currency: "USD",
                status: .authorized,
                totalAuthorizedMinorUnits: 7171,
                totalCapturedMinorUnits: 0,
                totalRefundedMinorUnits: 0,
                walletProvider: nil,
                reference: nil,
                creationTime: time
            ),
            time: time,
            echo: RequestEcho()
        )
    }
}

extension RiskScreeningTests {
    @Test("rule data is what the payment matched on, never the card number")
    func ruleData() {
        let amount = Amount(minorUnits: 7171, currency: Self.usd)
        let masked = "512345xxxxxx7771"
        #expect(SimulatedRiskRule.reviewAmount.data(amount: amount, maskedCardNumber: masked, billingCountry: nil) == "71.71")
        #expect(SimulatedRiskRule.reviewCard.data(amount: amount, maskedCardNumber: masked, billingCountry: nil) == "512345")
        #expect(SimulatedRiskRule.rejectCountry.data(amount: amount, maskedCardNumber: masked, billingCountry: "BVT") == "BVT")
        #expect(SimulatedRiskRule.rejectCountry.data(amount: amount, maskedCardNumber: masked, billingCountry: nil) == nil)
    }
}
