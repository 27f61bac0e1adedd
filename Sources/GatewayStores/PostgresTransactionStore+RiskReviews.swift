import GatewayCore
import PostgresNIO

/// Risk review decisions (issue 64) in the shared database: the review columns and the
/// notification in one transaction, so every replica reads the decision and its notification together.
extension PostgresTransactionStore: RiskReviewStore {
    package func recordRiskReview(_ review: RiskReviewRecord) async throws -> Bool {
        let update = RiskReviewStatements.update(review).postgresQuery
        let insert = review.notification.map { RiskReviewStatements.notification(review, $0).postgresQuery }
        let logger = self.logger
        return try await run { connection in
            try await connection.withTransaction(logger: logger) { connection in
                var changed = false
                for try await _ in try await connection.query(update, logger: logger) { changed = true }
                guard changed else { return false }
                if let insert { try await connection.query(insert, logger: logger) }
                return true
            }
        }
    }
}
