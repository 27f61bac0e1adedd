import Foundation
import Testing

@testable import Gateway

/// The order page of a payment that named a 3-D Secure 1 authentication: shown in the 3-D Secure
/// section with 3-D Secure 1's own words.
extension MerchantConsoleOrderPageTests {
    @Test("a payment naming a 3DSecureId shows it with its ECI and XID")
    func threeDS1Payment() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let check = Data(
                #"{"apiOperation":"CHECK_3DS_ENROLLMENT","3DSecure":{"authenticationRedirect":{"responseUrl":"https://merchant.example/process3ds"}},"order":{"amount":"56.56","currency":"USD"},"sourceOfFunds":{"provided":{"card":{"number":"5555555555554444","expiry":{"month":"1","year":"39"}}}}}"#
                    .utf8
            )
            let checked = try await client.put("/api/rest/version/57/merchant/\(TestGateway.merchantId)/3DSecureId/3ds-ma", check)
            #expect(checked.string("3DSecure.summaryStatus") == "CARD_NOT_ENROLLED")
            let xid = try #require(checked.string("3DSecure.xid"))
            let pay = Data(
                #"{"apiOperation":"PAY","3DSecureId":"3ds-ma","order":{"amount":"56.56","currency":"USD"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5555555555554444","expiry":{"month":"1","year":"39"}}}}}"#
                    .utf8
            )
            let paid = try await client.put(TestGateway.path(order: "ma-3ds1", transaction: "pay-1", version: 57), pay)
            #expect(paid.string("result") == "SUCCESS")

            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            let html = try await browser.get("/ma/orders/ma-3ds1").html
            #expect(html.contains("<h4>3-D Secure authentication</h4>"))
            #expect(html.contains("<dt>3DSecureId</dt><dd>3ds-ma</dd>"))
            #expect(html.contains("<dt>Status</dt><dd>AUTHENTICATION_NOT_SUPPORTED</dd>"))
            #expect(html.contains("<dt>Version</dt><dd>3DS1 1.0.2</dd>"))
            #expect(html.contains("<dt>ECI</dt><dd>01</dd>"))
            #expect(
                html.contains("<dt>XID</dt><dd>\(xid)</dd>")
                    || html.contains("<dt>XID</dt><dd>\(xid.replacingOccurrences(of: "=", with: "&#61;"))</dd>")
            )
        }
    }
}
