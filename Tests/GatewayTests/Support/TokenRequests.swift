import Foundation
import HummingbirdTesting

@testable import Gateway

/// Paths and bodies for the Tokenization calls, as a merchant server sends them.
enum TokenRequests {
    static func tokensPath(merchant: String = TestGateway.merchantId, version: Int = 100) -> String {
        "/api/rest/version/\(version)/merchant/\(merchant)/token"
    }

    static func tokenPath(_ token: String, merchant: String = TestGateway.merchantId, version: Int = 100) -> String {
        "\(tokensPath(merchant: merchant, version: version))/\(token)"
    }

    static func card(
        number: String = "5123450000000008",
        month: String = "1",
        year: String = "39",
        securityCode: String? = nil,
        extra: [String: Any] = [:]
    ) -> Data {
        var card: [String: Any] = ["number": number, "expiry": ["month": month, "year": year]]
        if let securityCode { card["securityCode"] = securityCode }
        var body: [String: Any] = ["sourceOfFunds": ["type": "CARD", "provided": ["card": card]]]
        body.merge(extra) { $1 }
        return TestGateway.json(body)
    }

    /// A payment naming a token, and whatever else the test adds.
    static func payment(_ token: String, operation: String = "PAY", amount: String = "56.56", extra: [String: Any] = [:]) -> Data {
        var body: [String: Any] = [
            "apiOperation": operation, "order": ["amount": amount, "currency": "USD"],
            "sourceOfFunds": ["type": "CARD", "token": token],
        ]
        body.merge(extra) { $1 }
        return TestGateway.json(body)
    }
}

extension TestClientProtocol {
    /// Create Token from a card; the token.
    func newToken(_ body: Data = TokenRequests.card(), merchant: String = TestGateway.merchantId) async throws -> String {
        let created = try await send(TokenRequests.tokensPath(merchant: merchant), method: .post, body: body)
        guard created.status == .created, let token = created.string("token") else {
            throw SessionTestFailure(description: "Create Token answered \(created.status): \(created.body)")
        }
        return token
    }
}
