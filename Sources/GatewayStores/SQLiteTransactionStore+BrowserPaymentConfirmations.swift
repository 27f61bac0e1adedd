import GatewayCore

/// CONFIRM_BROWSER_PAYMENT's writes (issue 64) in one transaction on the writer's queue, between
/// group commits.
extension SQLiteTransactionStore: BrowserPaymentConfirmationStore {
    package func recordConfirmation(_ confirmation: BrowserPaymentConfirmationRecord) async throws -> Bool {
        try await writer.perform { connection in
            try connection.transaction {
                guard try !connection.rows(BrowserPaymentConfirmationStatements.updateOrder(confirmation)).isEmpty else {
                    return false
                }
                guard try !connection.rows(BrowserPaymentConfirmationStatements.updateTransaction(confirmation)).isEmpty else {
                    throw BrowserPaymentConfirmationStatements.TransactionRowMissing()
                }
                if let notification = confirmation.record.notification {
                    _ = try connection.rows(BrowserPaymentConfirmationStatements.notification(confirmation.record, notification))
                }
                return true
            }
        }
    }
}
