import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import GatewayObservability
@testable import MPGSAPI
@testable import RadialAPI

@Suite("Radial-style Decrypt, through a real socket")
struct RadialDecryptTests {
    @Test("a merchant granted Decrypt gets the payment data; the call is logged without it and counted")
    func decrypts() async throws {
        let gateway = try await TestGateway(radialDecrypt: true)
        let logs = LogCollector()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let parts = try Radial.WalletParts(token: token)
        try await gateway.application(logger: logs.logger).test(.live) { client in
            let reply = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(parts))
            #expect(reply.status == .ok, "\(reply.body)")
            #expect(reply.root?.name == "DecryptReply")
            #expect(reply.text("ApplePayTransactionId") == parts.transactionId.lowercased())
            #expect(reply.text("PaymentAccountUniqueId") == "5204245250001488")
            #expect(reply.element("PaymentAccountUniqueId")?.attribute("isToken") == "false")
            #expect(reply.text("ExpirationDate")?.count == 7)
            #expect(reply.text("Amount") == "56.56")
            #expect(reply.element("Amount")?.attribute("currencyCode") == "USD")
            #expect(reply.text("PaymentDataType") == "3DSecure")
            let cryptogram = try #require(reply.text("OnlinePaymentCryptogram"))
            #expect(!cryptogram.isEmpty)

            // Decrypt does not use the transaction id up: the caller authorizes the card data next.
            let again = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(parts))
            #expect(again.status == .ok)

            // Once authorized, the same token is a replay for Decrypt too.
            let auth = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(parts, orderId: "dec-1"))
            #expect(auth.status == .ok)
            let replay = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(parts))
            #expect(replay.status == .badRequest)
            #expect(replay.text("Element") == "DecryptRequest/WalletPaymentInformation/ApplePayTransactionId")

            let scrape = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            let metrics = PrometheusSamples(scrape)
            #expect(metrics.value(GatewayMetrics.Names.radialDecrypts, ["result": "DECRYPTED"]) == 2)
            #expect(metrics.value(GatewayMetrics.Names.radialDecrypts, ["result": "REPLAYED"]) == 1)
            #expect(metrics.value(GatewayMetrics.Names.tokenFailures) == 1)

            let logged = logs.all.joined()
            #expect(logged.contains("radial decrypt"))
            #expect(!logged.contains("5204245250001488"))
            #expect(!logged.contains(cryptogram))
        }
    }

    @Test("Decrypt is off by default: 403, and the body is not even read")
    func offByDefault() async throws {
        let gateway = try await TestGateway()
        let parts = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(parts))
            #expect(reply.status == .forbidden)
            #expect(reply.text("Code") == "DECRYPT_NOT_ENABLED")
            #expect(!reply.body.contains("5204245250001488"))
            let unauthenticated = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(parts), apiKey: nil)
            #expect(unauthenticated.status == .unauthorized)
        }
    }

    @Test("a tampered token or a wrong document is a fault naming the element")
    func faults() async throws {
        let gateway = try await TestGateway(radialDecrypt: true)
        var parts = try Radial.WalletParts(token: TestGateway.mintToken(amountMinorUnits: 5656))
        parts.publicKeyHash = Data(repeating: 1, count: 32).base64EncodedString()
        let tampered = parts
        try await gateway.application.test(.live) { client in
            let reply = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(tampered))
            #expect(reply.status == .badRequest)
            #expect(reply.text("Element") == "DecryptRequest/WalletPaymentInformation/PublicKeyHash")
            #expect(reply.text("Description")?.contains("NO_MATCHING_KEY") == true)
            let missing = try await client.radial(
                Radial.decryptPath(),
                Radial.decryptRequest(tampered).replacingOccurrences(of: "<Version>EC_v1</Version>", with: "")
            )
            #expect(missing.text("Element") == "DecryptRequest/WalletPaymentInformation/Version")
            let wrongRoot = try await client.radial(Radial.decryptPath(), Radial.sdkCardRequest(orderId: "x"))
            #expect(wrongRoot.status == .badRequest)
            #expect(wrongRoot.text("Element") == "CreditCardAuthRequest")
        }
    }
}
