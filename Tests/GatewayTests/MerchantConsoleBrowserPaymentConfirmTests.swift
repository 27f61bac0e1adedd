import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Gateway

/// Issue 64: the console's order page says why a PayPal payment the payer approved is still
/// pending (CONFIRM_AT_MERCHANT: it awaits the merchant's CONFIRM_BROWSER_PAYMENT), and that the
/// merchant confirmed it once it has.
@Suite("Merchant Administration: a browser payment confirmed at the merchant")
struct MerchantConsoleBrowserPaymentConfirmTests {
    let console = MerchantConsoleTests()

    static let initiate = Data(
        #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"PAY","returnUrl":"https://merchant.example/return","paypal":{"paymentConfirmation":"CONFIRM_AT_MERCHANT"}},"order":{"amount":"25.00","currency":"USD","reference":"TEST-SUCCEED"},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}}}"#
            .utf8
    )

    @Test("pending: awaiting the merchant's confirmation; then confirmed by the merchant")
    func confirmation() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let path = TestGateway.path(order: "ma-paypal-confirm", transaction: "t-1")
            let browser = try await MerchantConsoleBrowserPaymentTests.approvedAtPayPal(client, path, Self.initiate)

            let pending = try await browser.get("/ma/orders/ma-paypal-confirm").html
            #expect(pending.contains("<dt>Result</dt><dd>PENDING</dd>"))
            #expect(pending.contains(", awaiting CONFIRM_BROWSER_PAYMENT from the merchant</dd>"))

            let confirmed = try await client.put(path, Data(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT"}"#.utf8))
            #expect(confirmed.status == .created)
            let done = try await browser.get("/ma/orders/ma-paypal-confirm").html
            #expect(done.contains("<dt>Result</dt><dd>SUCCESS</dd>"))
            #expect(done.contains(", confirmed by the merchant</dd>"))
            #expect(!done.contains("awaiting CONFIRM_BROWSER_PAYMENT"))
        }
    }
}
