import GatewayCore

/// 3-D Secure 1 authentications (issue 64), each call one statement.
extension PostgresTransactionStore: ThreeDS1Store {
    package func threeDS1Authentication(merchantId: String, threeDSecureId: String) async throws -> ThreeDS1Authentication? {
        try await rows(ThreeDS1Statements.select(merchantId: merchantId, threeDSecureId: threeDSecureId), ThreeDS1Columns.authentication).first
    }

    package func threeDS1Authentication(paReq: String) async throws -> ThreeDS1Authentication? {
        try await rows(ThreeDS1Statements.select(paReq: paReq), ThreeDS1Columns.authentication).first
    }

    package func insertThreeDS1Authentication(_ authentication: ThreeDS1Authentication) async throws -> Bool {
        try await changedRow(ThreeDS1Statements.insert(authentication))
    }

    package func replaceThreeDS1Authentication(_ authentication: ThreeDS1Authentication, expectedRevision: Int64) async throws -> Bool {
        try await changedRow(ThreeDS1Statements.replace(authentication, expectedRevision: expectedRevision))
    }
}
