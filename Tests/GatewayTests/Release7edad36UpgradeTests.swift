import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// Stores written by release 7edad36's own server (the last before the typed transaction record),
/// made by Fixtures/release-7edad36/make-fixtures.py, with every request sent and the answer
/// that release gave: opened in place, their transactions rendered from the typed columns the
/// upgrade fills, their retries answered, and new transactions written on.
@Suite("Stores from release 7edad36")
struct Release7edad36UpgradeTests {
    static let fixtures = ReleaseStores.fixtures("7edad36")
    /// The key that release ran with (make-fixtures.py), so retries match its fingerprints.
    static let fingerprintKey = [UInt8](repeating: 0x7e, count: 32)

    struct Exchange: Decodable {
        var api: String
        var path: String
        var request: String
        var response: String
    }

    static func exchanges(_ kind: StoreKind) throws -> [Exchange] {
        let all = try JSONDecoder().decode(
            [String: [Exchange]].self,
            from: Data(contentsOf: fixtures.appendingPathComponent("exchanges.json"))
        )
        return all[kind == .sqlite ? "sqlite" : "postgres"] ?? []
    }

    static func releaseStore(_ kind: StoreKind) async throws -> String { try await ReleaseStores.copy("7edad36", kind) }

    static func json(_ text: String) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSDictionary
    }

    @Test("its transactions render as that release answered them, and its retries get those answers", arguments: StoreKind.allCases)
    func upgradeInPlace(kind: StoreKind) async throws {
        let exchanges = try Self.exchanges(kind)
        #expect(exchanges.count == 7)
        let gateway = try await TestGateway(storeURL: try await Self.releaseStore(kind), requestFingerprintKey: Self.fingerprintKey)
        try await gateway.application.test(.router) { client in
            // Retrieve Order lists each transaction as that release's response said it.
            for orderId in ["r7-paid", "r7-auth", "r7-declined"] {
                let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/\(orderId)", method: .get)
                #expect(order.status == .ok, "\(order.body)")
                let listed = try #require(order.value("transaction") as? [[String: Any]])
                let answered = exchanges.filter { $0.api == "MPGS" && $0.path.contains("/order/\(orderId)/") }
                #expect(listed.count == answered.count)
                for (rendered, exchange) in zip(listed, answered) {
                    let original = try #require(Self.json(exchange.response))
                    #expect(NSDictionary(dictionary: rendered).isEqual(to: original as! [AnyHashable: Any]), "\(rendered)\n\(exchange.response)")
                }
            }
            #expect(
                try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/r7-paid", method: .get)
                    .string("description") == "fixture order"
            )

            // Every request sent again gets the answer that release gave, byte for byte.
            for exchange in exchanges {
                let retry: String
                switch exchange.api {
                case "MPGS":
                    retry = try await client.put(exchange.path, Data(exchange.request.utf8)).body
                default:
                    retry = try await client.radial(exchange.path, exchange.request).body
                }
                #expect(retry == exchange.response, "\(exchange.path)")
            }

            // New transactions on the release's orders: the card and description come from the
            // typed columns the upgrade filled.
            let capture = try await client.put(
                TestGateway.path(order: "r7-auth", transaction: "c2"),
                TestGateway.json(["apiOperation": "CAPTURE", "transaction": ["amount": "36.56", "currency": "USD"]])
            )
            #expect(capture.status == .created, "\(capture.body)")
            #expect(capture.string("order.status") == "CAPTURED")
            #expect(capture.string("sourceOfFunds.provided.card.deviceSpecificNumber") != nil)
            let refund = try await client.put(
                TestGateway.path(order: "r7-paid", transaction: "r2"),
                TestGateway.json(["apiOperation": "REFUND", "transaction": ["amount": "25.00", "currency": "USD"]])
            )
            #expect(refund.status == .created, "\(refund.body)")
            #expect(refund.string("order.status") == "REFUNDED")
            #expect(refund.string("order.description") == "fixture order")
            #expect(refund.string("billing.address.city") == "Lyon")
            #expect(refund.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
        }
    }
}
