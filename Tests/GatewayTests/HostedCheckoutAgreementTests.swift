import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Gateway

/// Issue 64: the first payment of an agreement through Hosted Checkout: INITIATE_CHECKOUT takes
/// `agreement.*`, and the page's payment carries it into the order, over TCP.
@Suite("Hosted Checkout: the first payment of an agreement")
struct HostedCheckoutAgreementTests {
    @Test("the agreement INITIATE_CHECKOUT names is the payment's and the order's")
    func agreementCarried() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let agreement: [String: Any] = ["id": "AGR-HC-1", "type": "RECURRING", "paymentFrequency": "MONTHLY"]
            let checkout = try await HostedCheckoutTests.Checkout.start(client, HostedCheckoutTests.initiate(extra: ["agreement": agreement]))
            let paid = try await checkout.submit(client, page: try await checkout.page(client), expiry: ("01", "39"))
            #expect(paid.status == .seeOther, "\(paid.body)")
            let order = try await client.send(
                TestGateway.path(order: checkout.orderId, transaction: "x").replacingOccurrences(of: "/transaction/x", with: ""),
                method: .get
            )
            #expect(order.string("status") == "CAPTURED", "\(order.body)")
            #expect(order.string("agreement.id") == "AGR-HC-1", "\(order.body)")
            let payment = (order.value("transaction") as? [[String: Any]])?.last
            #expect((payment?["agreement"] as? [String: Any])?["type"] as? String == "RECURRING", "\(order.body)")
        }
    }
}
