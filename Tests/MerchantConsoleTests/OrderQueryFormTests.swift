import Foundation
import GatewayCore
import Testing

@testable import MerchantConsole

/// The order search form read as a query: each filter, the page, and a field it cannot read named.
@Suite("Order search form")
struct OrderQueryFormTests {
    static func query(_ text: String) throws(ConsoleRejection) -> OrderQuery {
        try OrderQuery(form: FormFields(Substring(text))!, merchantId: "TESTMERCHANT")
    }

    @Test("an empty form searches the merchant's first page with no filter")
    func empty() throws {
        let query = try Self.query("")
        var expected = OrderQuery(merchantId: "TESTMERCHANT")
        expected.limit = 25
        #expect(query == expected)
        // Blank fields, as a browser sends an untouched form, filter nothing either.
        #expect(try Self.query("orderId=&from=&to=&status=&minAmount=&maxAmount=&last4=&wallet=&page=") == expected)
    }

    @Test("every filter read")
    func everyFilter() throws {
        let query = try Self.query(
            "orderId=order-7&from=2026-03-01&to=2026-03-31&status=CAPTURED&minAmount=1.5&maxAmount=100&last4=0008&wallet=APPLE_PAY&page=3"
        )
        #expect(query.merchantId == "TESTMERCHANT")
        #expect(query.orderId == "order-7")
        #expect(query.createdFrom == Date(timeIntervalSince1970: 1_772_323_200))  // 2026-03-01T00:00:00Z
        #expect(query.createdBefore == Date(timeIntervalSince1970: 1_775_001_600))  // 2026-04-01T00:00:00Z: the whole last day
        #expect(query.status == .captured)
        #expect(query.minAmountMinorUnits == 150 && query.maxAmountMinorUnits == 10_000)
        #expect(query.cardLastFour == "0008" && query.walletProvider == "APPLE_PAY")
        #expect(query.limit == 25 && query.offset == 50)
    }

    @Test("zero written any way is an amount of nothing")
    func zeroAmounts() throws {
        #expect(try Self.query("minAmount=0").minAmountMinorUnits == 0)
        #expect(try Self.query("minAmount=0.00").minAmountMinorUnits == 0)
    }

    @Test(
        "a field it cannot read is named, and nothing is searched",
        arguments: [
            ("from=2026-13-01", "Created from"), ("from=yesterday", "Created from"), ("to=01/03/2026", "Created to"),
            ("status=SHIPPED", "Status"), ("status=captured", "Status"), ("minAmount=1.234", "Amount from"),
            ("minAmount=-1", "Amount from"), ("maxAmount=ten", "Amount to"), ("last4=008", "Card last four"),
            ("last4=00a8", "Card last four"), ("last4=00008", "Card last four"), ("wallet=GOOGLE_PAY", "Wallet"),
            ("page=0", "page"), ("page=100001", "page"), ("page=two", "page"),
        ]
    )
    func unreadable(text: String, field: String) {
        #expect(throws: ConsoleRejection.invalidField(field)) { try Self.query(text) }
    }
}
