import GatewayCore

/// Merchant Administration's API password rotation log in the shared database
/// (``APIPasswordStatements``): a rotation made on one replica reaches the others at their next
/// refresh.
extension PostgresTransactionStore {
    package func apiPasswordChanges() async throws -> [APIPasswordChange] {
        // The table numbers no rows (PostgreSQL has no rowid): changes of one millisecond in any order.
        try await rows(APIPasswordStatements.changes(insertionOrder: nil), APIPasswordStatements.change)
    }

    package func recordAPIPasswordChange(_ change: APIPasswordChange) async throws -> Bool {
        try await changedRow(APIPasswordStatements.insert(change))
    }
}
