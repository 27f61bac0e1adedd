import Foundation

/// Where an operator's decision on a REVIEW_REQUIRED payment is written. Both stores keep it in
/// the transaction's receipt columns; they decide nothing.
package protocol RiskReviewStore: Sendable {
    /// Writes the reviewed receipt's risk columns and its response (rendered again, so Retrieve
    /// Transaction and the notification show the decision), and queues the notification, in one
    /// database transaction, only while the stored review is still PENDING. False: it was not
    /// (another operator decided first); nothing was written.
    func recordRiskReview(_ review: RiskReviewRecord) async throws -> Bool
}

/// What a review decision changes, as the core decided it.
package struct RiskReviewRecord: Sendable {
    /// The transaction with its assessment reviewed.
    package var receipt: TransactionReceipt
    package var response: StoredResponse
    package var notification: QueuedNotification?
    package var time: Date

    package init(receipt: TransactionReceipt, response: StoredResponse, notification: QueuedNotification?, time: Date) {
        self.receipt = receipt
        self.response = response
        self.notification = notification
        self.time = time
    }
}
