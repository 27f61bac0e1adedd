/// The forms of token the gateway generates (the reference's token generation strategies).
package enum TokenFormat: String, Sendable, Hashable, CaseIterable {
    /// Sixteen random digits beginning with 9 that pass the Luhn check: stored where a card
    /// number would be, yet no card's (no scheme issues cards beginning with 9).
    case random = "RANDOM"
    /// The card's first six and last four digits around random ones, made to fail the Luhn
    /// check so it is never a valid card number.
    case preserveSixFour = "PRESERVE_6_4"

    /// A new token for `cardNumber` (12-19 digits).
    package func generate(cardNumber: String, using generator: inout some RandomNumberGenerator) -> String {
        switch self {
        case .random:
            var digits = [9] + (0..<14).map { _ in Int.random(in: 0...9, using: &generator) }
            digits.append(Luhn.checkDigit(for: digits))
            return String(digits.map { Character(String($0)) })
        case .preserveSixFour:
            let card = cardNumber.compactMap(\.wholeNumberValue)
            let middleCount = max(card.count - 10, 1)
            var middle = (0..<middleCount).map { _ in Int.random(in: 0...9, using: &generator) }
            var digits = Array(card.prefix(6)) + middle + Array(card.suffix(4))
            if Luhn.isValid(digits) {
                // Moving one digit by one changes the Luhn sum, so the token is never a valid number.
                middle[0] = (middle[0] + 1) % 10
                digits = Array(card.prefix(6)) + middle + Array(card.suffix(4))
            }
            return String(digits.map { Character(String($0)) })
        }
    }
}

/// The Luhn (mod 10) check card numbers carry.
package enum Luhn {
    package static func isValid(_ digits: [Int]) -> Bool {
        sum(digits, doublingOdd: false) % 10 == 0
    }

    package static func isValid(_ number: String) -> Bool {
        let digits = number.compactMap(\.wholeNumberValue)
        return digits.count == number.count && isValid(digits)
    }

    /// The digit that, appended to `digits`, makes them pass.
    package static func checkDigit(for digits: [Int]) -> Int {
        (10 - sum(digits, doublingOdd: true) % 10) % 10
    }

    /// Every second digit from the right doubled (from the last one when `doublingOdd`, for a
    /// number still missing its check digit).
    private static func sum(_ digits: [Int], doublingOdd: Bool) -> Int {
        var total = 0
        for (offset, digit) in digits.reversed().enumerated() {
            let doubled = (offset % 2 == 0) == doublingOdd
            total += doubled ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
        }
        return total
    }
}
