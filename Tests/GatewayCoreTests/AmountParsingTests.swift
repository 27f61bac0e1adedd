import GatewayCore
import Testing

/// Amounts as MPGS clients write them, parsed into minor units without floating point.
@Suite("Amount parsing")
struct AmountParsingTests {
    enum Expected: Sendable, Equatable {
        case minor(Int64)
        case invalid
        case zero
    }

    static func parse(_ text: String, _ code: String) -> Expected {
        guard let currency = Currency(code: code) else { return .invalid }
        do {
            return .minor(try Amount(parsing: text, currency: currency).minorUnits)
        } catch .zero {
            return .zero
        } catch {
            return .invalid
        }
    }

    @Test(
        "decimal text in the currency's digits",
        arguments: [
            ("56.56", "USD", Expected.minor(5656)),
            ("5656", "USD", .minor(565_600)),
            ("61.5", "USD", .minor(6150)),
            ("61.000", "USD", .minor(6100)),
            ("007.10", "USD", .minor(710)),
            ("123456789012", "USD", .minor(12_345_678_901_200)),
            ("100", "JPY", .minor(100)),
            ("100.00", "JPY", .minor(100)),
            ("1.234", "KWD", .minor(1234)),
            ("1.2", "KWD", .minor(1200)),
            ("0", "USD", .zero),
            ("0.00", "USD", .zero),
            ("61.005", "USD", .invalid),
            ("100.5", "JPY", .invalid),
            ("1234567890123", "USD", .invalid),
            ("", "USD", .invalid),
            (".5", "USD", .invalid),
            ("5.", "USD", .invalid),
            ("1.2.3", "USD", .invalid),
            ("-1", "USD", .invalid),
            ("+1", "USD", .invalid),
            ("1e3", "USD", .invalid),
            (" 1", "USD", .invalid),
            ("1,00", "USD", .invalid),
            ("\u{FF11}\u{FF12}", "USD", .invalid),  // fullwidth digits
            ("\u{0663}", "USD", .invalid),  // an Arabic-Indic digit
            ("5\u{0301}", "USD", .invalid),  // a digit with a combining accent
        ]
    )
    func parsing(text: String, code: String, expected: Expected) {
        #expect(Self.parse(text, code) == expected, "\(text) \(code)")
    }

    @Test("every whole and fractional part up to the currency's digits reads back as written")
    func readsBack() throws {
        let usd = try #require(Currency(code: "USD"))
        for whole in [0, 1, 9, 10, 99, 100, 5656, 999_999] {
            for cents in 0..<100 where whole > 0 || cents > 0 {
                let amount = Amount(minorUnits: Int64(whole * 100 + cents), currency: usd)
                #expect(try Amount(parsing: amount.text, currency: usd) == amount, "\(amount.text)")
            }
        }
    }
}
