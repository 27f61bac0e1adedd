import Foundation
import GatewayConfigurationFile
import GatewayCore
import HummingbirdTesting
import SwiftASN1
import Synchronization
import Testing

@testable import Gateway

/// `applePay.newChainsPerSecond`: certificate chains the gateway has not seen are verified at a
/// bounded rate, since a forged one costs nothing to make and a P-384 verification to refute.
@Suite("the budget of new certificate chains")
struct NewChainBudgetTests {
    /// The token with one byte of its intermediate's signature changed: a forged chain, new to
    /// the gateway, which no trust root signed.
    static func forged(_ token: String, variant: UInt8) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        let signatureText = try #require(object["signature"] as? String)
        var signature = try #require(Data(base64Encoded: signatureText)).map { $0 }
        var serializer = DER.Serializer()
        try serializer.serialize(TestGateway.authority.intermediate)
        let intermediate = try #require(signature.firstRange(of: serializer.serializedBytes))
        signature[intermediate.upperBound - 3] ^= variant
        object["signature"] = Data(signature).base64EncodedString()
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("past the budget a new chain gets SERVER_BUSY, undecided; a remembered forgery and a cached chain do not wait")
    func budget() async throws {
        // The budget refills by the gateway's clock, which moves only when the test says so.
        let now = Mutex(Date())
        let gateway = try await TestGateway(clock: { now.withLock { $0 } }, newChainsPerSecond: 1)
        let good = try TestGateway.mintToken(amountMinorUnits: 5656)
        let forgery = try Self.forged(TestGateway.mintToken(amountMinorUnits: 5656), variant: 1)
        try await gateway.application.test(.router) { client in
            // The forgery spends this second's budget on its root check...
            let refused = try await client.put(TestGateway.path(order: "f1", transaction: "1"), TestGateway.tokenBody(forgery, amount: "56.56"))
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.explanation")?.contains("UNTRUSTED_CHAIN: the intermediate") == true, "\(refused.body)")

            // ...so the real chain, new to this gateway, is not verified this second.
            let path = TestGateway.path(order: "good", transaction: "1")
            let busy = try await client.put(path, TestGateway.tokenBody(good, amount: "56.56"))
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.string("result") == "ERROR")
            #expect(busy.string("error.cause") == "SERVER_BUSY")
            #expect(busy.string("error.explanation")?.contains("VERIFICATION_BUSY") == true, "\(busy.body)")
            #expect(busy.headers[.retryAfter] == "1")

            // The same forgery again is refused from its remembered verdict, with no budget left.
            let again = try await client.put(TestGateway.path(order: "f2", transaction: "1"), TestGateway.tokenBody(forgery, amount: "56.56"))
            #expect(again.status == .badRequest)
            #expect(again.string("error.explanation")?.contains("UNTRUSTED_CHAIN") == true)

            // A second later the same request goes through: the busy answer recorded nothing.
            now.withLock { $0 += 1.1 }
            let approved = try await client.put(path, TestGateway.tokenBody(good, amount: "56.56"))
            #expect(approved.status == .created, "\(approved.body)")
            #expect(approved.string("response.gatewayCode") == "APPROVED")

            // The chain is cached now: more tokens on it need no budget, spent or not.
            let another = try await client.put(
                TestGateway.path(order: "good-2", transaction: "1"),
                TestGateway.tokenBody(try TestGateway.mintToken(amountMinorUnits: 5656), amount: "56.56")
            )
            #expect(another.status == .created, "\(another.body)")
            let forgery2 = try await client.put(
                TestGateway.path(order: "f3", transaction: "1"),
                TestGateway.tokenBody(try Self.forged(good, variant: 2), amount: "56.56")
            )
            #expect(forgery2.status == .serviceUnavailable, "a new forgery waits for the budget: \(forgery2.body)")
        }
    }

    @Test("applePay.newChainsPerSecond is read from the environment, 20 by default, and 0 is refused naming the key")
    func configuration() async throws {
        #expect(try await GatewayService.loadConfiguration(.init(), environment: [:]).newChainsPerSecond == 20)
        let set = try await GatewayService.loadConfiguration(.init(), environment: ["GATEWAY_APPLE_PAY_NEW_CHAINS_PER_SECOND": "5"])
        #expect(set.newChainsPerSecond == 5)
        await #expect {
            try await GatewayService.loadConfiguration(.init(), environment: ["GATEWAY_APPLE_PAY_NEW_CHAINS_PER_SECOND": "0"])
        } throws: { ($0 as? ConfigurationError)?.key == "applePay.newChainsPerSecond" }
    }

    @Test("Radial's API answers a new chain past the budget with a 503 Fault, and the same request later with a reply")
    func radial() async throws {
        // The budget refills by the gateway's clock, which moves only when the test says so.
        let now = Mutex(Date())
        let gateway = try await TestGateway(clock: { now.withLock { $0 } }, newChainsPerSecond: 1)
        let forgery = try Radial.WalletParts(token: Self.forged(TestGateway.mintToken(amountMinorUnits: 5656), variant: 3))
        let good = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        try await gateway.application.test(.live) { client in
            let refused = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(forgery, orderId: "radial-f1"))
            #expect(refused.status == .badRequest)
            #expect(refused.text("Code") == "TOKEN_REJECTED")
            let busy = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(good, orderId: "radial-good", schemaVersion: "1.2"))
            #expect(busy.status == .serviceUnavailable, "\(busy.body)")
            #expect(busy.text("Code") == "SERVICE_UNAVAILABLE")
            #expect(busy.text("Description")?.contains("VERIFICATION_BUSY") == true)
            now.withLock { $0 += 1.1 }
            let approved = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(good, orderId: "radial-good", schemaVersion: "1.2"))
            #expect(approved.status == .ok, "\(approved.body)")
            #expect(approved.text("ResponseCode") == "APPROVED")
        }
    }
}
