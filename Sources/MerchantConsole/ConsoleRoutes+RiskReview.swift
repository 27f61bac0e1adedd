import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// Issue 64: an admin accepts or rejects, from the order page, a payment the risk rules held for
/// review. The decision goes through the core's ``RiskReviewProcessor`` (one decision per
/// payment, notified to the merchant), and is audited whether or not it was recorded.
extension ConsoleRoutes {
    /// The order page's review buttons post to `/ma/orders/<id>/risk-accept` and `.../risk-reject`.
    static func riskReviewDecision(_ action: String) -> RiskReviewDecision? {
        switch action {
        case "risk-accept": .accepted
        case "risk-reject": .rejected
        default: nil
        }
    }

    func reviewRisk(
        orderId: String,
        decision: RiskReviewDecision,
        session: ConsoleSession,
        context: GatewayRequestContext
    ) async throws -> Response {
        let now = services.clock()
        func audit(_ action: AuditEntry.Action, _ detail: String) async throws {
            try await services.store.appendAudit(
                AuditEntry(
                    merchantId: session.merchantId,
                    operatorName: session.operatorName,
                    action: action,
                    detail: detail,
                    address: context.remoteAddress,
                    time: now
                )
            )
        }
        let detail = "risk review \(decision.rawValue) on order \(orderId)"
        guard session.role.mayActOnOrders else {
            try await audit(.forbidden, detail)
            return refusal(.roleForbidden(session.role), session: session)
        }
        guard let processor = services.riskReviews, let merchant = services.merchants[session.merchantId],
            try await services.transactions.order(merchantId: session.merchantId, orderId: orderId) != nil
        else { return refusal(.orderNotFound(orderId), session: session) }
        do {
            let receipt = try await processor.review(
                decision,
                merchant: merchant,
                orderId: orderId,
                operatorName: session.operatorName,
                encoding: services.encoding
            )
            try await audit(.riskReview, detail + " (transaction \(receipt.transactionId))")
            return try await orderPage(orderId, session, message: "Risk review of \(receipt.transactionId): \(decision.rawValue)")
        } catch RiskReviewProcessor.Refusal.nothingToReview {
            try await audit(.riskReview, detail + ": refused, nothing waits for review")
            return try await orderPage(
                orderId,
                session,
                error: ConsoleRejectionOrText(text: "No payment on this order is waiting for a risk review.", status: .conflict)
            )
        }
    }

    /// `risk.response` as the order page shows it.
    static func riskValues(_ risk: RiskAssessment) -> [String: Any] {
        var values: [String: Any] = [
            "gatewayCode": risk.gatewayCode.rawValue, "decision": risk.review.decision.rawValue,
            "score": risk.totalScore, "awaitsReview": risk.awaitsReview,
        ]
        if let rule = risk.rule { values["rule"] = "\(rule.rawValue): \(rule.name) (\(rule.recommendation.rawValue))" }
        if let name = risk.review.operatorName, let time = risk.review.time {
            values["reviewedBy"] = "\(name), \(ConsoleFormat.time(time))"
        }
        return values
    }
}
