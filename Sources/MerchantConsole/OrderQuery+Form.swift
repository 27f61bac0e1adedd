import Foundation
import GatewayCore

/// The search form's fields as an ``OrderQuery``; a field it cannot read is named.
extension OrderQuery {
    static let pageSize = 25

    package init(form: FormFields, merchantId: String) throws(ConsoleRejection) {
        self.init(merchantId: merchantId)
        orderId = form["orderId"]
        createdFrom = try form["from"].map { text throws(ConsoleRejection) in try Self.day(text, field: "Created from") }
        createdBefore = try form["to"].map { text throws(ConsoleRejection) in
            try Self.day(text, field: "Created to").addingTimeInterval(86_400)
        }
        if let text = form["status"] {
            guard let status = OrderStatus(rawValue: text) else { throw .invalidField("Status") }
            self.status = status
        }
        minAmountMinorUnits = try form["minAmount"].map { text throws(ConsoleRejection) in try Self.minorUnits(text, field: "Amount from") }
        maxAmountMinorUnits = try form["maxAmount"].map { text throws(ConsoleRejection) in try Self.minorUnits(text, field: "Amount to") }
        if let lastFour = form["last4"] {
            guard lastFour.count == 4, lastFour.allSatisfy(\.isASCIIDigit) else { throw .invalidField("Card last four") }
            cardLastFour = lastFour
        }
        if let wallet = form["wallet"] {
            guard wallet == "APPLE_PAY" else { throw .invalidField("Wallet") }
            walletProvider = wallet
        }
        let page = try form["page"].map { text throws(ConsoleRejection) in
            guard let page = Int(text), page >= 1, page <= 100_000 else { throw .invalidField("page") }
            return page
        }
        limit = Self.pageSize
        offset = ((page ?? 1) - 1) * Self.pageSize
    }

    /// yyyy-MM-dd, the start of that day in UTC.
    private static func day(_ text: String, field: String) throws(ConsoleRejection) -> Date {
        let style = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
        guard let date = try? style.parse(text) else { throw .invalidField(field) }
        return date
    }

    /// An amount in major units with at most two decimals, as minor units of a two-decimal
    /// currency (the search compares `amount_minor`; ours: currencies with other exponents are
    /// compared as if they had two).
    private static func minorUnits(_ text: String, field: String) throws(ConsoleRejection) -> Int64 {
        guard let currency = Currency(code: "USD"), let amount = try? Amount(parsing: text, currency: currency) else {
            if text.allSatisfy({ $0 == "0" || $0 == "." }), !text.isEmpty { return 0 }
            throw .invalidField(field)
        }
        return amount.minorUnits
    }
}
