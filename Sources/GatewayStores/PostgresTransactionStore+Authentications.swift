import GatewayCore

/// Payer authentications in the shared database: one started on one replica is completed, and
/// paid with, on any other. Each call is one statement.
extension PostgresTransactionStore: AuthenticationStore {
    package func authentication(merchantId: String, orderId: String, transactionId: String) async throws -> PayerAuthentication? {
        try await rows(
            AuthenticationStatements.select(merchantId: merchantId, orderId: orderId, transactionId: transactionId),
            AuthenticationColumns.authentication
        ).first
    }

    package func authentication(challengeId: String) async throws -> PayerAuthentication? {
        try await rows(AuthenticationStatements.select(challengeId: challengeId), AuthenticationColumns.authentication).first
    }

    package func authentications(merchantId: String, orderId: String) async throws -> [PayerAuthentication] {
        try await rows(AuthenticationStatements.select(merchantId: merchantId, orderId: orderId), AuthenticationColumns.authentication)
    }

    package func insertAuthentication(_ authentication: PayerAuthentication) async throws -> Bool {
        try await changedRow(AuthenticationStatements.insert(authentication))
    }

    package func replaceAuthentication(_ authentication: PayerAuthentication, expectedRevision: Int64) async throws -> Bool {
        try await changedRow(AuthenticationStatements.replace(authentication, expectedRevision: expectedRevision))
    }
}
