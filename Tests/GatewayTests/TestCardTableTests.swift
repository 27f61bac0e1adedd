import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("Current and legacy test cards")
struct TestCardTableTests {
    /// What the simulator does with a plain card: a rule's code, or approval (the amount decides).
    func outcome(_ number: String, _ month: Int, _ year: Int, _ table: TestCardTable) -> GatewayCode {
        TestCardRules.gatewayCode(cardNumber: number, expiry: CardExpiry(month: month, year: year), table: table) ?? .approved
    }

    @Test("rules of one table only hold under either setting")
    func withoutCollision() {
        for table in TestCardTable.allCases {
            #expect(outcome("5123450000000008", 1, 28, table) == .unspecifiedFailure)
            #expect(outcome("5019994000124034", 1, 39, table) == .declined)
            #expect(outcome("4000300011112220", 9, 30, table) == .declined)
            #expect(outcome("5123450000000008", 5, 24, table) == .approved)
            #expect(outcome("5123450000000008", 5, 39, table) == .declined)
            #expect(outcome("5123450000000008", 5, 37, table) == .unknown)
        }
    }

    @Test(
        "where the tables disagree, the merchant's setting picks",
        arguments: [
            (4, 27, GatewayCode.expiredCard, GatewayCode.declined), (8, 28, .timedOut, .expiredCard),
            (1, 37, .acquirerSystemError, .timedOut), (2, 37, .unspecifiedFailure, .acquirerSystemError),
        ]
    )
    func collisions(month: Int, year: Int, current: GatewayCode, legacy: GatewayCode) {
        #expect(outcome("5123450000000008", month, year, .current) == current)
        #expect(outcome("5123450000000008", month, year, .legacy) == legacy)
    }

    @Test("merchant.<ID>.simulator.testCards is read (an unknown value: ConfigurationTests)")
    func configuration() async throws {
        func load(_ value: String) async throws -> GatewayConfiguration {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cards-\(UUID().uuidString).json").path
            try
                #"{"merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"], "simulator": {"testCards": "\#(value)"}}}}"#
                .write(toFile: path, atomically: true, encoding: .utf8)
            return try await GatewayService.loadConfiguration(.init(configFile: path), environment: [:])
        }
        #expect(try await load("legacy").merchants[0].testCards == .legacy)
        #expect(try await load("current").merchants[0].testCards == .current)
    }

    @Test("through the API: an old suite's declined card and an expiry of 01/28")
    func throughTheAPI() async throws {
        let gateway = try await TestGateway()
        let body = TestGateway.json([
            "apiOperation": "PAY", "order": ["amount": "1.00", "currency": "USD"],
            "sourceOfFunds": ["type": "CARD", "provided": ["card": ["number": "5019994000124034", "expiry": ["month": "05", "year": "24"]]]],
        ])
        try await gateway.application.test(.router) { client in
            let declined = try await client.put(TestGateway.path(order: "legacy-1", transaction: "1"), body)
            #expect(declined.string("result") == "FAILURE")
            #expect(declined.string("response.gatewayCode") == "DECLINED")
            let failure = try await client.put(
                TestGateway.path(order: "legacy-2", transaction: "1"),
                TestGateway.cardBody(amount: "1.00", month: "01", year: "28")
            )
            #expect(failure.string("result") == "FAILURE")
            #expect(failure.string("response.gatewayCode") == "UNSPECIFIED_FAILURE")
            let expired = try await client.put(
                TestGateway.path(order: "legacy-3", transaction: "1"),
                TestGateway.cardBody(amount: "1.00", month: "05", year: "24")
            )
            #expect(expired.string("response.gatewayCode") == "APPROVED")
        }
    }
}
