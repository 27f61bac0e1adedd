import Foundation
import Testing

@testable import GatewayCore

/// The gateway-token rules on stored state alone: the token formats, what an update may change,
/// what a verification's outcome means. No store, no HTTP.
@Suite("Gateway token rules")
struct TokenRulesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a random token is 16 digits, begins with 9 and passes the Luhn check")
    func randomTokens() {
        var generator = SystemRandomNumberGenerator()
        var seen: Set<String> = []
        for _ in 0..<500 {
            let token = TokenFormat.random.generate(cardNumber: "5123450000000008", using: &generator)
            #expect(token.count == 16)
            #expect(token.hasPrefix("9"))
            #expect(token.allSatisfy { $0.isWholeNumber })
            #expect(Luhn.isValid(token), "\(token)")
            seen.insert(token)
        }
        #expect(seen.count > 490, "random tokens repeat: \(500 - seen.count) repeats")
    }

    @Test(
        "a 6.4-preserving token keeps the card's first six and last four, its length, and fails the Luhn check",
        arguments: ["5123450000000008", "4508750015741019", "371881634498004", "2223000000000007"]
    )
    func preservingTokens(card: String) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let token = TokenFormat.preserveSixFour.generate(cardNumber: card, using: &generator)
            #expect(token.count == card.count)
            #expect(token.prefix(6) == card.prefix(6))
            #expect(token.suffix(4) == card.suffix(4))
            #expect(!Luhn.isValid(token), "\(token) passes the Luhn check")
        }
    }

    @Test("the Luhn check knows the test cards and refuses a changed digit")
    func luhn() {
        for card in ["5123450000000008", "4508750015741019", "371881634498004", "4012000033330026"] { #expect(Luhn.isValid(card)) }
        #expect(!Luhn.isValid("5123450000000009"))
        #expect(!Luhn.isValid("51234500000000a8"))
    }

    @Test("a token is its own merchant's only")
    func ownership() throws {
        let token = StoredToken.new(token: "9000000000000000", merchantId: "M1", sealedCard: [1], now: Self.now)
        #expect(token.status == .valid)
        try token.checkOwned(by: "M1")
        #expect(throws: CardTokenRejection.notFound) { try token.checkOwned(by: "M2") }
    }

    @Test("an update replaces the card and its time; a 6.4-preserving repository refuses another card number")
    func updates() throws {
        let token = StoredToken.new(token: "512345123450008", merchantId: "M1", sealedCard: [1], now: Self.now)
        let later = Self.now.addingTimeInterval(60)
        let random = try token.updated(
            sealedCard: [2],
            cardNumber: "4508750015741019",
            storedCardNumber: "5123450000000008",
            format: .random,
            now: later
        )
        #expect(random.sealedCard == [2] && random.updatedAt == later && random.createdAt == Self.now)
        let sameCard = try token.updated(
            sealedCard: [3],
            cardNumber: "5123450000000008",
            storedCardNumber: "5123450000000008",
            format: .preserveSixFour,
            now: later
        )
        #expect(sameCard.sealedCard == [3])
        #expect(throws: CardTokenRejection.preservedCardChanged) {
            try token.updated(
                sealedCard: [4],
                cardNumber: "4508750015741019",
                storedCardNumber: "5123450000000008",
                format: .preserveSixFour,
                now: later
            )
        }
    }

    @Test("an ACQUIRER verification stores only a card the acquirer approved with a matching security code")
    func verification() {
        func outcome(_ code: GatewayCode, csc: SecurityCodeResult? = nil) -> AcquirerOutcome {
            var outcome = AcquirerOutcome(gatewayCode: code, authorizedMinorUnits: 0)
            outcome.securityCodeResult = csc
            return outcome
        }
        #expect(TokenVerification(acquirer: outcome(.approved)) == .externalVerificationSuccessful)
        #expect(TokenVerification(acquirer: outcome(.approved, csc: .match)) == .externalVerificationSuccessful)
        #expect(TokenVerification(acquirer: outcome(.approved, csc: .noMatch)) == .externalVerificationDeclinedInvalidCSC)
        #expect(TokenVerification(acquirer: outcome(.declined)) == .externalVerificationDeclined)
        #expect(TokenVerification(acquirer: outcome(.expiredCard)) == .externalVerificationDeclinedExpiredCard)
        #expect(TokenVerification(acquirer: outcome(.timedOut)) == .externalVerificationProcessingError)
        let stores = TokenVerification.allCases.filter(\.storesCard)
        #expect(Set(stores) == [.basicVerificationSuccessful, .externalVerificationSuccessful, .noVerificationPerformed])
    }
}
