import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import ApplePayToken
@testable import Gateway
@testable import MPGSAPI

/// The probe's CMS alterations, sent as a merchant would: a token whose signature lists its
/// certificates swapped, or carries one twice, is refused over TCP and creates no order.
@Suite("Altered CMS signatures over TCP")
struct StrictTokenOverTCPTests {
    /// The token with `signature` rewritten by `alter` (given the leaf's and intermediate's DER).
    static func altered(_ token: String, _ alter: ([UInt8], [UInt8]) -> ([UInt8], [UInt8])) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        let text = try #require(object["signature"] as? String)
        let signature = try #require(Base64.decode(text))
        let certificates = try CMSSignedData(berEncoded: signature).certificates
        let original = Array(certificates[0]) + Array(certificates[1])
        let (from, to) = alter(Array(certificates[0]), Array(certificates[1]))
        #expect(from == original)
        let start = try #require((0...(signature.count - original.count)).first { signature[$0..<($0 + original.count)].elementsEqual(original) })
        var rewritten = signature
        rewritten.replaceSubrange(start..<(start + original.count), with: to)
        object["signature"] = Data(rewritten).base64EncodedString()
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test("swapped certificates and a duplicated leaf: 400, no order", arguments: ["swapped", "duplicated"])
    func refused(alteration: String) async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let bad = try Self.altered(token) { leaf, intermediate in
            (leaf + intermediate, alteration == "swapped" ? intermediate + leaf : leaf + leaf + intermediate)
        }
        try await gateway.application.test(.live) { client in
            let answer = try await client.put(
                TestGateway.path(order: "cms-\(alteration)", transaction: "1"),
                TestGateway.tokenBody(bad, amount: "56.56")
            )
            #expect(answer.status == .badRequest, "\(answer.body)")
            #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "cms-\(alteration)") == nil)
            // The unaltered token still pays.
            let good = try await client.put(TestGateway.path(order: "cms-good", transaction: "1"), TestGateway.tokenBody(token, amount: "56.56"))
            #expect(good.status == .created, "\(good.body)")
        }
    }
}
