import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import Gateway

/// Issue 64: the console's order page shows the agreement a payment belongs to, the order it
/// follows and whether its card is stored.
@Suite("Merchant Administration: a payment in a series")
struct MerchantConsoleAgreementTests {
    let console = MerchantConsoleTests()

    @Test("the agreement, the reference order and storedOnFile are shown")
    func agreement() async throws {
        let services = try await console.console()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let first = try await client.put(
                TestGateway.path(order: "ma-series-1", transaction: "1"),
                Data(
                    #"{"apiOperation":"PAY","order":{"amount":"9.99","currency":"USD"},"agreement":{"id":"AGR-1","type":"RECURRING"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"},"storedOnFile":"TO_BE_STORED"}}}}"#
                        .utf8
                )
            )
            #expect(first.string("result") == "SUCCESS")
            let next = try await client.put(
                TestGateway.path(order: "ma-series-2", transaction: "1"),
                Data(
                    #"{"apiOperation":"PAY","order":{"amount":"9.99","currency":"USD"},"transaction":{"source":"MERCHANT"},"referenceOrderId":"ma-series-1","sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"},"storedOnFile":"STORED"}}}}"#
                        .utf8
                )
            )
            #expect(next.string("result") == "SUCCESS", "\(next.body)")

            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            let firstPage = try await browser.get("/ma/orders/ma-series-1").html
            #expect(firstPage.contains("<dt>Agreement</dt><dd>AGR-1 RECURRING, card TO_BE_STORED</dd>"))
            let nextPage = try await browser.get("/ma/orders/ma-series-2").html
            #expect(nextPage.contains("<dt>Agreement</dt><dd> , follows order ma-series-1, card STORED</dd>"))
        }
    }
}
