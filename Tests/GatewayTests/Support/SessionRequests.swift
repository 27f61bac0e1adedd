import Foundation
import HummingbirdTesting
import Synchronization

@testable import Gateway
@testable import MPGSAPI

/// Paths and bodies for the session calls, as the mobile SDKs and a merchant server send them.
enum SessionRequests {
    static func sessionsPath(merchant: String = TestGateway.merchantId, version: Int = 100) -> String {
        "/api/rest/version/\(version)/merchant/\(merchant)/session"
    }

    static func sessionPath(_ id: String, merchant: String = TestGateway.merchantId, version: Int = 100) -> String {
        "\(sessionsPath(merchant: merchant, version: version))/\(id)"
    }

    /// The Mobile SDK's credential from API version 50 on: the session id as the password.
    static func sessionCredential(_ id: String, merchant: String = TestGateway.merchantId) -> String {
        TestGateway.authorization(merchant, id)
    }

    /// What the SDK sends after Apple Pay authorized: the token, the wallet and its user agent.
    static func tokenUpdate(_ token: String) -> Data {
        TestGateway.json([
            "order": ["walletProvider": "APPLE_PAY"],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": ["paymentToken": token]]]],
            "device": ["browser": "Gateway-iOS-SDK/1.1.5"],
        ])
    }

    static func cardUpdate(number: String = "5123450000000008", securityCode: String = "100") -> Data {
        TestGateway.json([
            "sourceOfFunds": [
                "type": "CARD",
                "provided": ["card": ["number": number, "securityCode": securityCode, "expiry": ["month": "1", "year": "39"]]],
            ]
        ])
    }

    /// The merchant server's payment: order and session, no card.
    static func payment(
        _ sessionId: String,
        operation: String = "PAY",
        amount: String = "56.56",
        currency: String = "USD",
        sessionVersion: String? = nil
    ) -> Data {
        var session: [String: Any] = ["id": sessionId]
        if let sessionVersion { session["version"] = sessionVersion }
        return TestGateway.json([
            "apiOperation": operation, "order": ["amount": amount, "currency": currency], "session": session,
        ])
    }
}

extension TestClientProtocol {
    /// Create Session with the merchant's password; returns the session id.
    func createSession(body: Data? = nil, merchant: String = TestGateway.merchantId) async throws -> Exchange {
        try await send(SessionRequests.sessionsPath(merchant: merchant), method: .post, body: body)
    }

    func newSessionId() async throws -> String {
        let created = try await createSession()
        guard created.status == .created, let id = created.string("session.id") else {
            throw SessionTestFailure(description: "Create Session answered \(created.status): \(created.body)")
        }
        return id
    }
}

struct SessionTestFailure: Error, CustomStringConvertible {
    let description: String
}

/// A clock the test moves forward.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    var now: @Sendable () -> Date {
        { [self] in Date().addingTimeInterval(offset.withLock { $0 }) }
    }
}
