import GatewayCore

/// Merchant Administration's API password rotation log in the SQLite file (``APIPasswordStatements``).
extension SQLiteTransactionStore {
    package func apiPasswordChanges() async throws -> [APIPasswordChange] {
        // Changes made in one millisecond in the order written, by SQLite's own rowid.
        try await rows(APIPasswordStatements.changes(insertionOrder: "rowid"), APIPasswordStatements.change)
    }

    package func recordAPIPasswordChange(_ change: APIPasswordChange) async throws -> Bool {
        try await changedRow(APIPasswordStatements.insert(change))
    }
}
