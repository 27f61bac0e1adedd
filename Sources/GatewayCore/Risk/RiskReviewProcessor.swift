import Foundation

/// An operator's ACCEPT or REJECT of an order held for risk review: the payment's
/// `risk.response.review` records who decided and when, Retrieve Order and Retrieve Transaction
/// show it, and the merchant is notified (the payment's transaction, as it now reads). A
/// rejection stops further captures (``RiskReviewRule``).
package struct RiskReviewProcessor: Sendable {
    let environment: ProcessingEnvironment
    let store: any RiskReviewStore

    package init(_ environment: ProcessingEnvironment, store: any RiskReviewStore) {
        self.environment = environment
        self.store = store
    }

    /// Why a decision was not recorded.
    package enum Refusal: Error, Sendable, Hashable {
        /// The order has no payment waiting for review (none was held, or it was decided already).
        case nothingToReview
    }

    /// The reviewed transaction.
    package func review(
        _ decision: RiskReviewDecision,
        merchant: Merchant,
        orderId: String,
        operatorName: String,
        encoding: any TransactionResponseEncoding
    ) async throws -> TransactionReceipt {
        try await environment.locks.withLock("\(merchant.id)\u{0}\(orderId)") {
            let transactions = try await environment.store.transactions(merchantId: merchant.id, orderId: orderId)
            let now = environment.now()
            guard var receipt = transactions.last(where: { $0.receipt.risk?.awaitsReview == true })?.receipt,
                let reviewed = receipt.risk?.reviewed(decision, by: operatorName, at: now)
            else { throw Refusal.nothingToReview }
            receipt.risk = reviewed
            let record = RiskReviewRecord(
                receipt: receipt,
                response: StoredResponse(format: encoding.format, bytes: encoding.encode(receipt)),
                notification: try await notification(merchant, orderId: orderId),
                time: now
            )
            guard try await store.recordRiskReview(record) else { throw Refusal.nothingToReview }
            if record.notification != nil { environment.notificationDoorbell?.ring() }
            return receipt
        }
    }

    /// Where the order's notifications go: the URL it chose, else the merchant's.
    private func notification(_ merchant: Merchant, orderId: String) async throws -> QueuedNotification? {
        guard let settings = merchant.notifications else { return nil }
        let orderURL = try await environment.outbox?.orderNotificationURL(merchantId: merchant.id, orderId: orderId)
        return QueuedNotification.route(requestURL: nil, orderURL: orderURL, merchant: settings)
    }
}
