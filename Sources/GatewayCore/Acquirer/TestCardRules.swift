/// Which table wins where the gateway's older sandbox test-card rules and its current ones give
/// the same card different outcomes (`merchant.<ID>.simulator.testCards`).
package enum TestCardTable: String, Sendable, CaseIterable {
    case current
    case legacy
}

/// The card simulator's outcomes for plain cards, by card number and expiry. Client test suites
/// recorded against the older sandbox still expect its rules, so both tables hold; where they
/// disagree on an expiry, the merchant's ``TestCardTable`` picks.
package enum TestCardRules {
    /// The gateway's current test cards, by expiry month/year.
    package static let currentExpiry: [CardExpiry: GatewayCode] = [
        expiry(1, 39): .approved, expiry(5, 39): .declined, expiry(4, 27): .expiredCard,
        expiry(8, 28): .timedOut, expiry(1, 37): .acquirerSystemError, expiry(2, 37): .unspecifiedFailure,
        expiry(5, 37): .unknown,
    ]

    /// The older sandbox's expiry rules, as client test suites recorded them (Deploy/docs/api.md, "Test cards").
    package static let legacyExpiry: [CardExpiry: GatewayCode] = [
        expiry(5, 21): .approved, expiry(5, 24): .approved, expiry(1, 28): .unspecifiedFailure,
        expiry(4, 27): .declined, expiry(8, 28): .expiredCard, expiry(1, 37): .timedOut,
        expiry(2, 37): .acquirerSystemError,
    ]

    /// The older sandbox's declined card numbers, whatever the expiry.
    package static let legacyCardNumbers: [String: GatewayCode] = [
        "5019994000124034": .declined,
        "4000300011112220": .declined,
    ]

    /// The outcome a plain card forces, or nil when the amount decides.
    package static func gatewayCode(cardNumber: String, expiry: CardExpiry, table: TestCardTable) -> GatewayCode? {
        if let byNumber = legacyCardNumbers[cardNumber] { return byNumber }
        switch (currentExpiry[expiry], legacyExpiry[expiry]) {
        case (let current?, let legacy?): return table == .current ? current : legacy
        case (let current?, nil): return current
        case (nil, let legacy?): return legacy
        case (nil, nil): return nil
        }
    }

    private static func expiry(_ month: Int, _ year: Int) -> CardExpiry {
        CardExpiry(month: month, year: year)
    }
}
