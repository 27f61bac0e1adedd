import GatewayCore
import Testing

/// Issue 64: the rules a merchant-initiated payment's request alone decides.
@Suite("Stored credentials rules")
struct StoredCredentialsRulesTests {
    static func payment(source: String, securityCode: String? = nil, credentials: StoredCredentials) -> PaymentRequest {
        var request = PaymentRequest(
            operation: .pay,
            amount: Amount(minorUnits: 999, currency: Currency(code: "USD")!),
            walletProvider: nil,
            orderReference: nil,
            transactionReference: nil,
            transactionSource: source,
            source: .card(
                .init(number: "5123450000000008", expiry: CardExpiry(month: 1, year: 39), securityCode: securityCode, nameOnCard: nil)
            )
        )
        request.storedCredentials = credentials
        return request
    }

    @Test("a payer-initiated payment is free of them, whatever it sends")
    func payerInitiated() throws {
        try Self.payment(source: "INTERNET", securityCode: "100", credentials: StoredCredentials(storedOnFile: .toBeStored)).checkStoredCredentials()
        try Self.payment(source: "MOTO", credentials: StoredCredentials()).checkStoredCredentials()
    }

    @Test("a merchant-initiated payment names its agreement or reference order, sends no security code and pays with a stored card")
    func merchantInitiated() throws {
        try Self.payment(source: "MERCHANT", credentials: StoredCredentials(agreementId: "A-1", storedOnFile: .stored)).checkStoredCredentials()
        try Self.payment(source: "MERCHANT", credentials: StoredCredentials(referenceOrderId: "o-1")).checkStoredCredentials()
        #expect(throws: MerchantInitiatedRejection.agreementMissing) {
            try Self.payment(source: "MERCHANT", credentials: StoredCredentials(storedOnFile: .stored)).checkStoredCredentials()
        }
        #expect(throws: MerchantInitiatedRejection.securityCodeSent) {
            try Self.payment(source: "MERCHANT", securityCode: "100", credentials: StoredCredentials(agreementId: "A-1")).checkStoredCredentials()
        }
        #expect(throws: MerchantInitiatedRejection.cardNotStored(.notStored)) {
            try Self.payment(source: "MERCHANT", credentials: StoredCredentials(agreementId: "A-1", storedOnFile: .notStored))
                .checkStoredCredentials()
        }
    }
}
