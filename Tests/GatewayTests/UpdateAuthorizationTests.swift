import Foundation
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

/// UPDATE_AUTHORIZATION's request and refusals through the MPGS routes.
@Suite("UPDATE_AUTHORIZATION")
struct UpdateAuthorizationTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    static func update(_ transaction: [String: Any], extra: [String: Any] = [:]) -> Data {
        TestGateway.json(["apiOperation": "UPDATE_AUTHORIZATION", "transaction": transaction].merging(extra) { $1 })
    }

    @Test("an Apple Pay authorization is updated; the response repeats the device card and the order's description")
    func applePay() async throws {
        try await gateway.application.test(.router) { client in
            let token = try TestGateway.mintToken(amountMinorUnits: 5656)
            let auth = try await client.put(
                TestGateway.path(order: "upd-ap", transaction: "1"),
                TestGateway.json([
                    "apiOperation": "AUTHORIZE",
                    "order": ["amount": "56.56", "currency": "USD", "walletProvider": "APPLE_PAY", "description": "Room 118"],
                    "sourceOfFunds": ["type": "CARD", "provided": ["card": ["devicePayment": ["paymentToken": token]]]],
                ])
            )
            #expect(auth.status == .created, "\(auth.body)")
            let update = try await client.put(
                TestGateway.path(order: "upd-ap", transaction: "2"),
                Self.update(["amount": "80.00", "currency": "USD", "reference": "inc-1"], extra: ["order": ["reference": "stay-118"]])
            )
            #expect(update.status == .created, "\(update.body)")
            #expect(update.string("transaction.type") == "AUTHORIZATION_UPDATE")
            #expect(update.string("transaction.reference") == "inc-1")
            #expect(update.value("order.totalAuthorizedAmount") as? Double == 80)
            #expect(update.value("order.amount") as? Double == 56.56)
            #expect(update.string("order.description") == "Room 118")
            #expect(update.string("order.reference") == "stay-118")
            #expect(update.string("sourceOfFunds.provided.card.encryption") == "DEVICE")
            #expect(update.isCanonicalJSON)
        }
    }

    @Test("refusals name the field; none changes the order")
    func refusals() async throws {
        try await gateway.application.test(.router) { client in
            _ = try await client.put(
                TestGateway.path(order: "upd-r", transaction: "1"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "100.00")
            )
            let cases: [(Data, String, String)] = [
                (Self.update(["amount": "10.00"]), "transaction.currency", "MISSING"),
                (Self.update(["currency": "USD"]), "transaction.amount", "MISSING"),
                (Self.update(["amount": "0.00", "currency": "USD"]), "transaction.amount", "INVALID"),
                (Self.update(["amount": "10.001", "currency": "USD"]), "transaction.amount", "INVALID"),
                (Self.update(["amount": "10.00", "currency": "GBP"]), "transaction.currency", "INVALID"),
                (Self.update(["amount": "10.00", "currency": "USD", "targetTransactionId": "1"]), "transaction.targetTransactionId", "UNSUPPORTED"),
                (Self.update(["amount": "10.00", "currency": "USD"], extra: ["billing": ["address": ["city": "Paris"]]]), "billing", "UNSUPPORTED"),
                (Self.update(["amount": "10.00", "currency": "USD"], extra: ["session": ["id": "SESSION0000"]]), "session", "UNSUPPORTED"),
            ]
            for (index, (body, field, validationType)) in cases.enumerated() {
                let refused = try await client.put(TestGateway.path(order: "upd-r", transaction: "x\(index)"), body)
                #expect(refused.status == .badRequest, "\(index): \(refused.body)")
                #expect(refused.string("error.field")?.hasPrefix(field) == true, "\(index): \(refused.body)")
                #expect(refused.string("error.validationType") == validationType, "\(index): \(refused.body)")
            }
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/upd-r", method: .get)
            #expect((order.value("transaction") as? [Any])?.count == 1)
            #expect(order.value("totalAuthorizedAmount") as? Double == 100)

            let nowhere = try await client.put(
                TestGateway.path(order: "upd-none", transaction: "1"),
                Self.update(["amount": "1.00", "currency": "USD"])
            )
            #expect(nowhere.status == .notFound)
        }
    }

    @Test(
        "a paid, verified, voided or declined order holds no authorization to update",
        arguments: [("PAY", "100.00", nil), ("VERIFY", "100.00", nil), ("AUTHORIZE", "57.57", nil), ("AUTHORIZE", "100.00", "VOID")]
    )
    func noAuthorization(operation: String, amount: String, then: String?) async throws {
        try await gateway.application.test(.router) { client in
            let opened = try await client.put(
                TestGateway.path(order: "upd-n", transaction: "1"),
                TestGateway.cardBody(operation: operation, amount: amount)
            )
            #expect(opened.status == .created)
            if then == "VOID" {
                let void = try await client.put(
                    TestGateway.path(order: "upd-n", transaction: "2"),
                    TestGateway.json(["apiOperation": "VOID", "transaction": ["targetTransactionId": "1"]])
                )
                #expect(void.string("order.status") == "CANCELLED")
            }
            let refused = try await client.put(
                TestGateway.path(order: "upd-n", transaction: "u"),
                Self.update(["amount": "50.00", "currency": "USD"])
            )
            #expect(refused.status == .badRequest, "\(refused.body)")
            #expect(refused.string("error.field") == "apiOperation")
            #expect(refused.string("error.explanation")?.hasPrefix("Value 'UPDATE_AUTHORIZATION' is invalid. The order is ") == true)
        }
    }

    @Test("an update is no VOID's target")
    func notVoidable() async throws {
        try await gateway.application.test(.router) { client in
            _ = try await client.put(
                TestGateway.path(order: "upd-v", transaction: "1"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "100.00")
            )
            let update = try await client.put(
                TestGateway.path(order: "upd-v", transaction: "2"),
                Self.update(["amount": "120.00", "currency": "USD"])
            )
            #expect(update.status == .created)
            let void = try await client.put(
                TestGateway.path(order: "upd-v", transaction: "3"),
                TestGateway.json(["apiOperation": "VOID", "transaction": ["targetTransactionId": "2"]])
            )
            #expect(void.status == .badRequest)
            #expect(void.string("error.explanation") == "Value 'VOID' is invalid. There is no transaction to void.")
        }
    }
}
