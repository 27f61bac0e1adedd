import GatewayCore

/// Gateway tokens in the shared database: a token made on one replica pays on any other. Each
/// call is one statement.
extension PostgresTransactionStore: TokenStore {
    package func insertToken(_ token: StoredToken) async throws -> Bool {
        try await changedRow(TokenStatements.insert(token))
    }

    package func token(merchantId: String, token: String) async throws -> StoredToken? {
        try await rows(TokenStatements.select(merchantId: merchantId, token: token)) {
            try TokenStatements.token($0, merchantId: merchantId, token: token)
        }.first
    }

    package func replaceToken(_ token: StoredToken) async throws -> Bool {
        try await changedRow(TokenStatements.replace(token))
    }

    package func deleteToken(merchantId: String, token: String) async throws -> Bool {
        try await changedRow(TokenStatements.delete(merchantId: merchantId, token: token))
    }
}
