import GatewayCore

/// Risk review decisions (issue 64): the review columns and the notification in one transaction
/// on the writer's queue, between group commits.
extension SQLiteTransactionStore: RiskReviewStore {
    package func recordRiskReview(_ review: RiskReviewRecord) async throws -> Bool {
        try await writer.perform { connection in
            try connection.transaction {
                guard try !connection.rows(RiskReviewStatements.update(review)).isEmpty else { return false }
                if let notification = review.notification {
                    _ = try connection.rows(RiskReviewStatements.notification(review, notification))
                }
                return true
            }
        }
    }
}
