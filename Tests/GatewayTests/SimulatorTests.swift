import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("Simulated acquirer")
struct SimulatorTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    static let outcomes: [(String, String, String, String?)] = [
        ("56.56", "APPROVED", "SUCCESS", "00"), ("57.57", "DECLINED", "FAILURE", "05"),
        ("58.58", "TIMED_OUT", "FAILURE", "68"), ("59.59", "UNSPECIFIED_FAILURE", "FAILURE", "06"),
        ("61.61", "PARTIALLY_APPROVED", "SUCCESS", "10"), ("62.62", "SYSTEM_ERROR", "FAILURE", "96"),
        ("63.63", "UNKNOWN", "UNKNOWN", nil), ("5757.00", "DECLINED", "FAILURE", "05"),
        ("6161", "PARTIALLY_APPROVED", "SUCCESS", "10"), ("12.34", "APPROVED", "SUCCESS", "00"),
    ]

    @Test("every amount of the table, as minor units and as a whole amount, with a real token", arguments: outcomes)
    func amountTable(amount: String, gatewayCode: String, result: String, acquirerCode: String?) async throws {
        let minorUnits = try Amount(parsing: amount, currency: #require(Currency(code: "USD"))).minorUnits
        let token = try TestGateway.mintToken(amountMinorUnits: minorUnits)
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "o-\(amount)", transaction: "1"),
                TestGateway.tokenBody(token, amount: amount)
            )
            #expect(exchange.status == .created)  // declines are processed transactions too
            #expect(exchange.isCanonicalJSON)
            #expect(exchange.string("response.gatewayCode") == gatewayCode)
            #expect(exchange.string("result") == result)
            #expect(exchange.string("response.acquirerCode") == acquirerCode)
            let approved = result == "SUCCESS"
            #expect((exchange.string("transaction.authorizationCode") != nil) == approved)
            #expect((exchange.string("transaction.receipt") != nil) == approved)
            #expect((exchange.string("authorizationResponse.stan") != nil) == approved)
            #expect(exchange.string("order.status") == (approved ? "AUTHORIZED" : "FAILED"))
            let total = try #require(exchange.value("order.totalAuthorizedAmount") as? Double)
            let requested = try #require(exchange.value("order.amount") as? Double)
            switch gatewayCode {
            case "APPROVED": #expect(total == requested)
            case "PARTIALLY_APPROVED": #expect(total > 0 && total < requested)
            default: #expect(total == 0)
            }
        }
    }

    @Test(
        "plain cards follow the card simulator's expiry dates and security codes",
        arguments: [
            ("5", "39", nil, "DECLINED", nil), ("4", "27", nil, "EXPIRED_CARD", nil), ("08", "28", nil, "TIMED_OUT", nil),
            ("1", "37", nil, "ACQUIRER_SYSTEM_ERROR", nil), ("2", "37", nil, "UNSPECIFIED_FAILURE", nil),
            ("5", "37", nil, "UNKNOWN", nil), ("1", "39", "100", "APPROVED", "MATCH"),
            ("01", "2039", "101", "APPROVED", "NOT_PROCESSED"), ("1", "39", "102", "APPROVED", "NO_MATCH"),
        ] as [(String, String, String?, String, String?)]
    )
    func plainCards(month: String, year: String, securityCode: String?, gatewayCode: String, csc: String?) async throws {
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "card-\(month)-\(year)-\(securityCode ?? "")", transaction: "1"),
                TestGateway.cardBody(amount: "10.00", month: month, year: year, securityCode: securityCode)
            )
            #expect(exchange.status == .created)
            #expect(exchange.string("response.gatewayCode") == gatewayCode)
            #expect(exchange.string("response.cardSecurityCode.gatewayCode") == csc)
            #expect(exchange.isCanonicalJSON)
            #expect(exchange.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(exchange.value("sourceOfFunds.provided.card.encryption") == nil)
        }
    }

    @Test("merchant-decrypted Apple Pay data pays like a token, by amount")
    func devicePaymentFields() async throws {
        let body = TestGateway.json([
            "apiOperation": "PAY",
            "order": ["amount": "57.57", "currency": "GBP", "walletProvider": "APPLE_PAY"],
            "sourceOfFunds": [
                "type": "CARD",
                "provided": [
                    "card": [
                        "number": "4508750015741019", "expiry": ["month": "05", "year": "39"],
                        "devicePayment": [
                            "cryptogramFormat": "3DSECURE", "onlinePaymentCryptogram": "IA/8pdiWftSsxpFT6wABoDABhgA=",
                            "eciIndicator": "05",
                        ],
                    ]
                ],
            ],
            "transaction": ["source": "INTERNET"], "device": ["mobilePhoneModel": "iPhone"],
            "posTerminal": ["location": "PAYER_TERMINAL_OFF_PREMISES"],
        ])
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(TestGateway.path(order: "device-1", transaction: "1"), body)
            #expect(exchange.status == .created)
            // 05/39 would decline a plain card; device payments go by amount: 57.57 declines.
            #expect(exchange.string("response.gatewayCode") == "DECLINED")
            #expect(exchange.string("sourceOfFunds.provided.card.brand") == "VISA")
            #expect(exchange.string("sourceOfFunds.provided.card.deviceSpecificNumber") == "450875xxxxxx1019")
            #expect(exchange.string("sourceOfFunds.provided.card.encryption") == "DEVICE")
            #expect(!exchange.body.contains("IA/8pdiWftSsxpFT6wABoDABhgA="))
        }
    }

    @Test("amount matching can be narrowed per merchant")
    func amountMatching() throws {
        let usd = try #require(Currency(code: "USD"))
        let minorOnly = SimulatedAcquirer(amountMatching: .minorUnits)
        let wholeOnly = SimulatedAcquirer(amountMatching: .wholeAmount)
        #expect(minorOnly.gatewayCode(forAmount: Amount(minorUnits: 5757, currency: usd)) == "DECLINED")
        #expect(minorOnly.gatewayCode(forAmount: Amount(minorUnits: 575_700, currency: usd)) == "APPROVED")
        #expect(wholeOnly.gatewayCode(forAmount: Amount(minorUnits: 575_700, currency: usd)) == "DECLINED")
        #expect(wholeOnly.gatewayCode(forAmount: Amount(minorUnits: 5757, currency: usd)) == "APPROVED")
    }

    @Test("after a declined initial transaction a new one may follow; after a success it may not")
    func initialTransactions() async throws {
        try await gateway.application.test(.router) { client in
            let declined = try await client.put(
                TestGateway.path(order: "retry-order", transaction: "1"),
                TestGateway.cardBody(amount: "57.57")
            )
            #expect(declined.string("result") == "FAILURE")
            let approved = try await client.put(
                TestGateway.path(order: "retry-order", transaction: "2"),
                TestGateway.cardBody(amount: "57.58")
            )
            #expect(approved.string("result") == "SUCCESS")
            #expect(approved.string("order.creationTime") == declined.string("order.creationTime"))
            let third = try await client.put(
                TestGateway.path(order: "retry-order", transaction: "3"),
                TestGateway.cardBody(amount: "1.00")
            )
            #expect(third.status == .badRequest)
            let reused = try await client.put(
                TestGateway.path(order: "retry-order", transaction: "2"),
                TestGateway.cardBody(amount: "9.99")
            )
            #expect(reused.status == .badRequest)
            #expect(reused.string("error.field") == "transaction.id")
        }
    }
}
