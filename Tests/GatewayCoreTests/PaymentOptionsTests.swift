import ApplePayToken
import Crypto
import GatewayCore
import Testing

/// Payment Options Inquiry's answer, from a merchant's configuration and the request's filters.
@Suite("Payment options")
struct PaymentOptionsTests {
    static let withApplePay = Merchant(
        id: "SHOP",
        apiPasswords: ["secret"],
        keyRing: MerchantKeyRing([MerchantIdentity(merchantIdentifier: "merchant.shop", privateKey: .ec(P256.KeyAgreement.PrivateKey()))]),
        acquirer: SimulatedAcquirer()
    )
    static let withoutApplePay = Merchant(id: "PLAIN", apiPasswords: ["secret"], keyRing: MerchantKeyRing([]), acquirer: SimulatedAcquirer())

    @Test("unfiltered: every brand and currency, the operations, 3DS2 and a token repository; Apple Pay only with an identity")
    func unfiltered() {
        let options = PaymentOptions(merchant: Self.withApplePay)
        #expect(options.cardBrands == PaymentOptions.cardBrands)
        #expect(options.cardBrands.contains("MASTERCARD") && options.cardBrands.contains("VISA"))
        #expect(options.currencies.count == Currency.all.count && options.currencies.contains(Ledger.usd))
        #expect(options.currencies.map(\.code) == options.currencies.map(\.code).sorted())
        #expect(options.wallets == [.applePay])
        #expect(options.threeDSecureVersions == [.threeDS2])
        #expect(options.hasTokenRepository)
        #expect(options.operations == [.authorize, .pay, .verify])
        #expect(PaymentOptions(merchant: Self.withoutApplePay).wallets.isEmpty)
    }

    @Test(
        "a card prefix leaves only its brand; an unknown one leaves none",
        arguments: [("512345", ["MASTERCARD"]), ("222100", ["MASTERCARD"]), ("411111", ["VISA"]), ("371449", ["AMEX"]), ("999999", [])]
    )
    func prefix(prefix: String, brands: [String]) {
        let options = PaymentOptions(merchant: Self.withApplePay, filter: .init(cardPrefix: prefix))
        #expect(options.cardBrands == brands)
        #expect(options.currencies.count == Currency.all.count)
    }

    @Test("a currency leaves only itself")
    func currency() {
        let options = PaymentOptions(merchant: Self.withoutApplePay, filter: .init(currency: Ledger.eur))
        #expect(options.currencies == [Ledger.eur])
        #expect(options.cardBrands == PaymentOptions.cardBrands)
    }

    @Test("the brand list is every brand the card-number rules name")
    func brandsMatchCardRules() {
        let named = Set(
            [
                "5123450000000008", "4111111111111111", "378282246310005", "6011111111111117", "3530111333300000",
                "36227206271667", "6200000000000005", "5018000000000009",
            ].map { CardBrand(cardNumber: $0).brand }
        )
        #expect(named == Set(PaymentOptions.cardBrands))
    }
}
