import GatewayCore
import WireJSON

/// Token responses as the reference gives them: `result`, `status`, `token`, `repositoryId`,
/// the card masked, `usage`, `verificationStrategy`, and what the verification found.
enum TokenView {
    static func json(
        _ token: TokenService.OpenToken,
        repository: TokenRepository,
        verification: (strategy: VerificationStrategy, outcome: TokenVerification)?,
        correlationId: String?
    ) -> JSONValue {
        var members: [String: JSONValue] = [
            "result": .string("SUCCESS"),
            "status": .string(token.stored.status.rawValue),
            "token": .string(token.stored.token),
            "repositoryId": .string(repository.id),
            "sourceOfFunds": sourceOfFunds(token.card),
            "usage": .object([
                "lastUpdated": .string(Timestamp.string(token.stored.updatedAt)),
                "lastUpdatedBy": .string(token.stored.merchantId),
            ]),
            "verificationStrategy": .string((verification?.strategy ?? repository.verificationStrategy).rawValue),
        ]
        if let verification { members["response"] = .object(["gatewayCode": .string(verification.outcome.rawValue)]) }
        if let correlationId { members["correlationId"] = .string(correlationId) }
        return .object(members)
    }

    /// A card its verification did not pass: nothing was stored (an update left the token as it was).
    static func notStored(
        _ card: TokenCard,
        repository: TokenRepository,
        strategy: VerificationStrategy,
        outcome: TokenVerification,
        token: String?,
        correlationId: String?
    ) -> JSONValue {
        var members: [String: JSONValue] = [
            "result": .string("FAILURE"),
            "repositoryId": .string(repository.id),
            "response": .object(["gatewayCode": .string(outcome.rawValue)]),
            "sourceOfFunds": sourceOfFunds(card),
            "verificationStrategy": .string(strategy.rawValue),
        ]
        if let token { members["token"] = .string(token) }
        if let correlationId { members["correlationId"] = .string(correlationId) }
        return .object(members)
    }

    private static func sourceOfFunds(_ card: TokenCard) -> JSONValue {
        .object(["type": .string("CARD"), "provided": .object(["card": card.maskedJSON])])
    }
}
