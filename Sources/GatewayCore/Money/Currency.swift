/// An ISO 4217 currency: the alphabetic code orders use, the numeric code Apple Pay tokens use,
/// and the number of minor-unit digits that turns one into the other's amounts.
package struct Currency: Sendable, Hashable {
    package let code: String
    package let numericCode: String
    package let exponent: Int

    package init?(code: String) {
        guard let entry = Self.table[code] else { return nil }
        self = entry
    }

    /// Every currency this gateway takes, by code (Payment Options Inquiry lists them).
    package static var all: [Currency] { table.values.sorted { $0.code < $1.code } }

    /// The currency an Apple Pay token names by its ISO 4217 numeric code ("840").
    package init?(numericCode: String) {
        guard let entry = Self.table.values.first(where: { $0.numericCode == numericCode }) else { return nil }
        self = entry
    }

    private init(_ code: String, _ numericCode: String, _ exponent: Int) {
        self.code = code
        self.numericCode = numericCode
        self.exponent = exponent
    }

    /// The currencies merchants settle in, with their ISO 4217 numeric codes and exponents.
    private static let table: [String: Currency] = Dictionary(
        uniqueKeysWithValues: [
            Currency("AED", "784", 2), Currency("ARS", "032", 2), Currency("AUD", "036", 2), Currency("BDT", "050", 2),
            Currency("BGN", "975", 2), Currency("BHD", "048", 3), Currency("BRL", "986", 2), Currency("CAD", "124", 2),
            Currency("CHF", "756", 2), Currency("CLP", "152", 0), Currency("CNY", "156", 2), Currency("COP", "170", 2),
            Currency("CZK", "203", 2), Currency("DKK", "208", 2), Currency("EGP", "818", 2), Currency("EUR", "978", 2),
            Currency("GBP", "826", 2), Currency("HKD", "344", 2), Currency("HUF", "348", 2), Currency("IDR", "360", 2),
            Currency("ILS", "376", 2), Currency("INR", "356", 2), Currency("ISK", "352", 0), Currency("JOD", "400", 3),
            Currency("JPY", "392", 0), Currency("KES", "404", 2), Currency("KRW", "410", 0), Currency("KWD", "414", 3),
            Currency("LKR", "144", 2), Currency("MAD", "504", 2), Currency("MXN", "484", 2), Currency("MYR", "458", 2),
            Currency("NGN", "566", 2), Currency("NOK", "578", 2), Currency("NZD", "554", 2), Currency("OMR", "512", 3),
            Currency("PEN", "604", 2), Currency("PHP", "608", 2), Currency("PKR", "586", 2), Currency("PLN", "985", 2),
            Currency("QAR", "634", 2), Currency("RON", "946", 2), Currency("RUB", "643", 2), Currency("SAR", "682", 2),
            Currency("SEK", "752", 2), Currency("SGD", "702", 2), Currency("THB", "764", 2), Currency("TND", "788", 3),
            Currency("TRY", "949", 2), Currency("TWD", "901", 2), Currency("UAH", "980", 2), Currency("UGX", "800", 0),
            Currency("USD", "840", 2), Currency("VND", "704", 0), Currency("XAF", "950", 0), Currency("XOF", "952", 0),
            Currency("ZAR", "710", 2),
        ].map { ($0.code, $0) }
    )
}
