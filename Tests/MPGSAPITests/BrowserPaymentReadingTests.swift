import Foundation
import GatewayCore
import Testing

@testable import MPGSAPI

/// Issue 64: INITIATE_BROWSER_PAYMENT's body, field by field, and the interaction the payer's
/// browser carries to the sandbox PayPal page.
@Suite("Browser payment request")
struct BrowserPaymentReadingTests {
    static let valid =
        #"{"apiOperation":"INITIATE_BROWSER_PAYMENT","browserPayment":{"operation":"PAY","returnUrl":"https://merchant.example/return","paypal":{"paymentConfirmation":"CONFIRM_AT_PROVIDER"}},"order":{"amount":"12.50","currency":"USD","reference":"TEST-SUCCEED"},"sourceOfFunds":{"type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}}}"#

    static func read(_ body: String, version: Int = 100) throws(GatewayError) -> BrowserPaymentRequest {
        let shape = RequestCatalogue.transactionRequest.shape(for: .browserPayment(.initiate), version: version)
        return try BrowserPaymentRequest.reading(RequestReader(body: Array(body.utf8), shape: shape))
    }

    @Test("a PayPal PAY is read with its amount, reference and return URL")
    func readsValid() throws {
        let request = try Self.read(Self.valid)
        #expect(request.operation == .pay)
        #expect(request.type == .paypal)
        #expect(request.amount.minorUnits == 1250)
        #expect(request.orderReference == "TEST-SUCCEED")
        #expect(request.returnURL == "https://merchant.example/return")
    }

    @Test("before version 50 PayPal is named in sourceOfFunds.type")
    func readsOlderSourceType() throws {
        let body = Self.valid.replacingOccurrences(of: #""type":"BROWSER_PAYMENT","browserPayment":{"type":"PAYPAL"}"#, with: #""type":"PAYPAL""#)
        #expect(try Self.read(body, version: 47).type == .paypal)
    }

    @Test(
        "each wrong field is refused by name",
        arguments: [
            (#""operation":"PAY""#, #""operation":"VERIFY""#, "browserPayment.operation"),
            (#""returnUrl":"https://merchant.example/return""#, #""returnUrl":"ftp://x.example/return""#, "browserPayment.returnUrl"),
            (#""type":"BROWSER_PAYMENT""#, #""type":"CARD""#, "sourceOfFunds.type"),
            (
                #""paymentConfirmation":"CONFIRM_AT_PROVIDER""#, #""paymentConfirmation":"CONFIRM_LATER""#,
                "browserPayment.paypal.paymentConfirmation"
            ),
            (#""returnUrl":"https://merchant.example/return","#, "", "browserPayment.returnUrl"),
            (#""amount":"12.50","#, "", "order.amount"),
        ]
    )
    func refusesByField(original: String, replacement: String, field: String) {
        let body = Self.valid.replacingOccurrences(of: original, with: replacement)
        #expect(body != Self.valid)
        let error = #expect(throws: GatewayError.self) { try Self.read(body) }
        #expect(error?.field == field)
    }

    @Test("CONFIRM_AT_MERCHANT is read, and sealed with the interaction; none sent is CONFIRM_AT_PROVIDER")
    func readsConfirmation() throws {
        #expect(try Self.read(Self.valid).confirmation == .atProvider)
        let atMerchant = Self.valid.replacingOccurrences(of: "CONFIRM_AT_PROVIDER", with: "CONFIRM_AT_MERCHANT")
        let request = try Self.read(atMerchant)
        #expect(request.confirmation == .atMerchant)
        let unsaid = Self.valid.replacingOccurrences(of: #","paypal":{"paymentConfirmation":"CONFIRM_AT_PROVIDER"}"#, with: "")
        #expect(unsaid != Self.valid)
        #expect(try Self.read(unsaid).confirmation == .atProvider)
        let cipher = SessionCipher(key: Array(repeating: 7, count: 32))
        let interaction = BrowserPaymentInteraction(
            merchantId: "TESTMERCHANT",
            orderId: "o-1",
            transactionId: "t-1",
            version: try #require(APIVersion("100")),
            request: request,
            requestHash: [1, 2, 3],
            initiatedAt: Date(milliseconds: 1_800_000_000_123)
        )
        #expect(BrowserPaymentInteraction.open(try interaction.sealed(with: cipher), with: cipher)?.request.confirmation == .atMerchant)
    }

    @Test("CONFIRM_BROWSER_PAYMENT takes a new amount with its currency, and nothing a payment takes")
    func readsConfirm() throws {
        func read(_ body: String) throws(GatewayError) -> BrowserPaymentConfirmRequest {
            let shape = RequestCatalogue.transactionRequest.shape(for: .browserPayment(.confirm), version: 100)
            return try BrowserPaymentConfirmRequest.reading(RequestReader(body: Array(body.utf8), shape: shape))
        }
        let bare = try read(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT"}"#)
        #expect(bare.amount == nil && bare.currency == nil)
        let changed = try read(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT","order":{"amount":"30.00","currency":"USD"},"correlationId":"c-1"}"#)
        #expect(changed.amount?.minorUnits == 3000)
        let noCurrency = #expect(throws: GatewayError.self) { try read(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT","order":{"amount":"30.00"}}"#) }
        #expect(noCurrency?.field == "order.currency")
        let reference = #expect(throws: GatewayError.self) {
            try read(#"{"apiOperation":"CONFIRM_BROWSER_PAYMENT","order":{"reference":"TEST-FAIL-DECLINE"}}"#)
        }
        #expect(reference?.field == "order.reference")
    }

    @Test("a card field is not a browser payment's")
    func refusesCardFields() {
        let body = Self.valid.replacingOccurrences(
            of: #""browserPayment":{"type":"PAYPAL"}"#,
            with: #""browserPayment":{"type":"PAYPAL"},"provided":{"card":{"number":"5123450000000008"}}"#
        )
        #expect(throws: GatewayError.self) { _ = try Self.read(body) }
    }

    @Test("the sealed interaction opens as it was, and not once changed or under another key")
    func interactionSealing() throws {
        let cipher = SessionCipher(key: Array(repeating: 7, count: 32))
        let interaction = BrowserPaymentInteraction(
            merchantId: "TESTMERCHANT",
            orderId: "o-1",
            transactionId: "t-1",
            version: try #require(APIVersion("100")),
            request: try Self.read(Self.valid),
            requestHash: [1, 2, 3],
            initiatedAt: Date(milliseconds: 1_800_000_000_123)
        )
        let sealed = try interaction.sealed(with: cipher)
        #expect(BrowserPaymentInteraction.open(sealed, with: cipher) == interaction)
        #expect(!sealed.contains("TEST-SUCCEED"), "the interaction is sealed, not only signed")
        // A character in the middle (the last one may carry only padding bits).
        var characters = Array(sealed)
        characters[characters.count / 2] = characters[characters.count / 2] == "A" ? "B" : "A"
        let changed = String(characters)
        #expect(BrowserPaymentInteraction.open(changed, with: cipher) == nil)
        #expect(BrowserPaymentInteraction.open(sealed, with: SessionCipher(key: Array(repeating: 8, count: 32))) == nil)
    }
}
