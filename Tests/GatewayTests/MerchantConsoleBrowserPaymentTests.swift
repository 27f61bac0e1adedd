import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Gateway

/// Issue 64: the console's order page shows a PayPal payment: no card, the provider and the
/// payer's interaction with it.
@Suite("Merchant Administration: a browser payment's order page")
struct MerchantConsoleBrowserPaymentTests {
    let console = MerchantConsoleTests()

    static let initiate = Data(
        #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"PAY","returnUrl":"https://merchant.example/return"},"order":{"amount":"25.00","currency":"USD","reference":"TEST-SUCCEED"},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}}}"#
            .utf8
    )

    @Test("the provider and the interaction are shown, and no card")
    func browserPayment() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let browser = try await Self.approvedAtPayPal(client, TestGateway.path(order: "ma-paypal", transaction: "t-1"), Self.initiate)
            let html = try await browser.get("/ma/orders/ma-paypal").html
            #expect(html.contains("<h3>t-1: PAYMENT 25.00 USD</h3>"))
            #expect(html.contains("<dt>Browser payment</dt><dd>PAYPAL, interaction RETURNED_TO_MERCHANT "))
            #expect(html.contains("<dt>Card</dt><dd>none</dd>"))
        }
    }

    /// Initiates a PayPal payment at `path`, has the payer approve it on the sandbox page and
    /// signs a viewer in: the console's browser, ready to open the order.
    static func approvedAtPayPal(_ client: any TestClientProtocol, _ path: String, _ initiate: Data) async throws -> ConsoleBrowser {
        let initiated = try await client.put(path, initiate)
        #expect(initiated.status == .created)
        let browser = ConsoleBrowser(client)
        try await browser.approveAtPayPal(initiated)
        _ = try await browser.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
        return browser
    }
}
