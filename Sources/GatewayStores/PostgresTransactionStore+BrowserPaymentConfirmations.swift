import GatewayCore
import PostgresNIO

/// CONFIRM_BROWSER_PAYMENT's writes (issue 64) in the shared database, in one transaction, so
/// every replica reads the confirmed payment, its order and its notification together.
extension PostgresTransactionStore: BrowserPaymentConfirmationStore {
    package func recordConfirmation(_ confirmation: BrowserPaymentConfirmationRecord) async throws -> Bool {
        let order = BrowserPaymentConfirmationStatements.updateOrder(confirmation).postgresQuery
        let transaction = BrowserPaymentConfirmationStatements.updateTransaction(confirmation).postgresQuery
        let insert = confirmation.record.notification.map {
            BrowserPaymentConfirmationStatements.notification(confirmation.record, $0).postgresQuery
        }
        let logger = self.logger
        return try await run { connection in
            try await connection.withTransaction(logger: logger) { connection in
                var guarded = false
                for try await _ in try await connection.query(order, logger: logger) { guarded = true }
                guard guarded else { return false }
                var updated = false
                for try await _ in try await connection.query(transaction, logger: logger) { updated = true }
                guard updated else { throw BrowserPaymentConfirmationStatements.TransactionRowMissing() }
                if let insert { try await connection.query(insert, logger: logger) }
                return true
            }
        }
    }
}
