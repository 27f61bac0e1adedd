/// Brand and scheme as MPGS names them, from the card number's prefix.
package struct CardBrand: Sendable, Hashable {
    package let brand: String
    package let scheme: String

    package init(cardNumber: String) {
        let digits = Array(cardNumber.utf8.prefix(6)).map { Int($0) - 48 }
        func prefix(_ count: Int) -> Int { digits.prefix(count).reduce(0) { $0 * 10 + $1 } }
        let name: String
        switch (prefix(1), prefix(2), prefix(3), prefix(4)) {
        case (4, _, _, _): name = "VISA"
        case (_, 51...55, _, _), (_, _, _, 2221...2720): name = "MASTERCARD"
        case (_, 34, _, _), (_, 37, _, _): name = "AMEX"
        case (_, _, _, 6011), (_, 65, _, _), (_, _, 644...649, _): name = "DISCOVER"
        case (_, 35, _, _): name = "JCB"
        case (_, 36, _, _), (_, 38, _, _), (_, _, 300...305, _): name = "DINERS_CLUB"
        case (_, 62, _, _): name = "UNIONPAY"
        case (_, 50, _, _), (_, 56...58, _, _), (_, 67, _, _): name = "MAESTRO"
        default: name = "UNKNOWN"
        }
        self.init(name: name)
    }

    /// The brand by the name MPGS gives it (as stored); Maestro cards go through Mastercard's scheme.
    package init(name: String) {
        brand = name
        scheme = name == "MAESTRO" ? "MASTERCARD" : name
    }
}
