import ApplePayToken
import GatewayCore
import WireJSON

/// The card a token stands for, as it is sealed: the number and expiry, nothing else (no
/// security code: it is used for an ACQUIRER verification and forgotten).
struct TokenCard: Sendable, Hashable {
    var number: String
    var expiry: CardExpiry

    /// What is sealed: the request's own shape, so a payment reads it as if it had been sent.
    var sealedJSON: JSONValue {
        .object(["number": .string(number), "expiry": expiry.json])
    }

    init(number: String, expiry: CardExpiry) {
        self.number = number
        self.expiry = expiry
    }

    /// From the opened seal; nil when it is not what ``sealedJSON`` wrote.
    init?(sealed value: JSONValue) {
        guard case .string(let number)? = value["number"], case .string(let month)? = value["expiry"]?["month"],
            case .string(let year)? = value["expiry"]?["year"], let month = Int(month), let year = Int(year)
        else { return nil }
        self.init(number: number, expiry: CardExpiry(month: month, year: year))
    }

    /// The card as token responses show it: masked to its first six and last four, with the
    /// expiry as the reference's token responses give it (MMYY).
    var maskedJSON: JSONValue {
        let brand = CardBrand(cardNumber: number)
        return .object([
            "brand": .string(brand.brand),
            "scheme": .string(brand.scheme),
            "fundingMethod": .string("UNKNOWN"),
            "number": .string(CardNumberMask.mask(number)),
            "expiry": .string(Self.twoDigits(expiry.month) + Self.twoDigits(expiry.year)),
        ])
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
