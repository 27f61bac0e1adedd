import GatewayCore
import WireJSON

/// The payment page's own checks on what the payer typed, in words a payer understands, before
/// the API's rules see the card; and how the API's field names map back to the page's inputs.
enum CardFormCheck {
    typealias Field = HostedCheckoutPayments.CardField

    static func problems(_ card: HostedCheckoutPayments.EnteredCard) -> [Field: String] {
        var problems: [Field: String] = [:]
        let number = digitsOnly(card.number)
        if number.isEmpty {
            problems[.number] = "Enter the card number."
        } else if number.count < 12 || number.count > 19 || !number.allSatisfy(\.isASCIIDigit) || !Luhn.isValid(number) {
            problems[.number] = words(for: .number)
        }
        if let month = Int(card.expiryMonth.trimmed), (1...12).contains(month), card.expiryMonth.trimmed.count <= 2 {
        } else {
            problems[.expiryMonth] = card.expiryMonth.trimmed.isEmpty ? "Enter the expiry month." : words(for: .expiryMonth)
        }
        let year = card.expiryYear.trimmed
        if year.isEmpty {
            problems[.expiryYear] = "Enter the expiry year."
        } else if !(year.count == 2 || year.count == 4) || Int(year) == nil {
            problems[.expiryYear] = words(for: .expiryYear)
        }
        let code = card.securityCode.trimmed
        if code.isEmpty {
            problems[.securityCode] = "Enter the security code."
        } else if !(3...4).contains(code.count) || !code.allSatisfy(\.isASCIIDigit) {
            problems[.securityCode] = words(for: .securityCode)
        }
        if card.nameOnCard.count > 256 { problems[.nameOnCard] = words(for: .nameOnCard) }
        return problems
    }

    /// The card as Update Session takes it.
    static func sourceOfFunds(_ card: HostedCheckoutPayments.EnteredCard) -> JSONValue {
        var year = card.expiryYear.trimmed
        if year.count == 4 { year = String(year.suffix(2)) }
        var month = card.expiryMonth.trimmed
        if month.count == 1 { month = "0" + month }
        var fields: [String: JSONValue] = [
            "number": .string(digitsOnly(card.number)),
            "expiry": .object(["month": .string(month), "year": .string(year)]),
            "securityCode": .string(card.securityCode.trimmed),
        ]
        let name = card.nameOnCard.trimmed
        if !name.isEmpty { fields["nameOnCard"] = .string(name) }
        return .object([
            "sourceOfFunds": .object(["type": .string("CARD"), "provided": .object(["card": .object(fields)])])
        ])
    }

    /// The page input an API field error is about.
    static func pageField(for apiField: String) -> Field? {
        let card = "sourceOfFunds.provided.card."
        guard apiField.hasPrefix(card) else { return nil }
        switch apiField.dropFirst(card.count) {
        case "number": return .number
        case "expiry.month", "expiry": return .expiryMonth
        case "expiry.year": return .expiryYear
        case "securityCode": return .securityCode
        case "nameOnCard": return .nameOnCard
        default: return nil
        }
    }

    static func words(for field: Field) -> String {
        switch field {
        case .number: "Enter a valid card number: 12 to 19 digits, as printed on the card."
        case .expiryMonth: "Enter the expiry month as two digits, 01 to 12."
        case .expiryYear: "Enter the expiry year as printed on the card, for example 39 or 2039."
        case .securityCode: "Enter the 3 or 4 digit security code from the card."
        case .nameOnCard: "Enter the name as printed on the card, at most 256 characters."
        }
    }

    /// Spaces and dashes people type between groups of digits go; anything else stays, to fail.
    static func digitsOnly(_ text: String) -> String {
        String(text.filter { $0 != " " && $0 != "-" })
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
