import ApplePaySandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore

/// The order page through HTTP: what it shows of each transaction (totals, codes, the 3-D Secure
/// authentication, the request as the gateway read it, the response) with card data masked, and
/// VOID from its form.
@Suite("Merchant Administration: the order page")
struct MerchantConsoleOrderPageTests {
    let console = MerchantConsoleTests()

    static let initiate = Data(
        #"{"apiOperation":"INITIATE_AUTHENTICATION","order":{"currency":"USD"},"authentication":{"acceptVersions":"3DS2","channel":"PAYER_BROWSER","purpose":"PAYMENT_TRANSACTION"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"}}}}}"#
            .utf8
    )
    static let authenticatePayer = Data(
        #"{"apiOperation":"AUTHENTICATE_PAYER","order":{"amount":"56.56","currency":"USD"},"authentication":{"redirectResponseUrl":"https://merchant.example/3ds/return"},"device":{"browser":"MOZILLA","browserDetails":{"javaEnabled":false,"language":"en-GB","screenHeight":900,"screenWidth":1400,"timeZone":-60,"colorDepth":24,"3DSecureChallengeWindowSize":"FULL_SCREEN","acceptHeaders":"text/html"},"ipAddress":"127.0.0.1"}}"#
            .utf8
    )
    /// A PAY naming the authentication, with a security code and fields the response echoes.
    static let pay = Data(
        #"{"apiOperation":"PAY","order":{"amount":"56.56","currency":"USD","description":"console test order"},"authentication":{"transactionId":"auth-1"},"billing":{"address":{"city":"Leeds"}},"customer":{"firstName":"Ada"},"sourceOfFunds":{"type":"CARD","provided":{"card":{"number":"5123450000000008","expiry":{"month":"1","year":"39"},"securityCode":"987"}}}}"#
            .utf8
    )

    @Test(
        "a 3-D Secure card payment: totals, gateway code, acquirer fields, the response, the request as read and the authentication",
        arguments: StoreKind.allCases
    )
    func cardPayment(store: StoreKind) async throws {
        let services = try await console.console(store)
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let initiated = try await client.put(TestGateway.path(order: "ma-3ds", transaction: "auth-1"), Self.initiate)
            #expect(initiated.status == .created)
            let authenticated = try await client.put(TestGateway.path(order: "ma-3ds", transaction: "auth-1"), Self.authenticatePayer)
            #expect(authenticated.string("transaction.authenticationStatus") == "AUTHENTICATION_SUCCESSFUL")
            let paid = try await client.put(TestGateway.path(order: "ma-3ds", transaction: "pay-1"), Self.pay)
            #expect(paid.string("result") == "SUCCESS")
            let dsTransactionId = try #require(paid.string("authentication.3ds2.dsTransactionId"))
            let acquirerCode = try #require(paid.string("response.acquirerCode"))
            let acquirerMessage = try #require(paid.string("response.acquirerMessage"))
            let authorizationCode = try #require(paid.string("transaction.authorizationCode"))

            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "victor", password: MerchantConsoleTests.viewerPassword)
            let html = try await browser.get("/ma/orders/ma-3ds").html
            for totals in ["Status</dt><dd>CAPTURED", "Amount</dt><dd>56.56 USD", "Captured</dt><dd>56.56 USD", "Refunded</dt><dd>0.00 USD"] {
                #expect(html.contains("<dt>\(totals)</dd>"), "\(totals)")
            }
            #expect(html.contains("<h3>pay-1: PAYMENT 56.56 USD</h3>"))
            #expect(html.contains("<dt>Gateway code</dt><dd>APPROVED</dd>"))
            #expect(html.contains("<dt>Acquirer</dt><dd>\(acquirerCode) \(acquirerMessage)</dd>"))
            #expect(html.contains("<dt>Authorization code</dt><dd>\(authorizationCode)</dd>"))
            #expect(html.contains("<summary>Response (as returned, masked)</summary>"))
            #expect(html.contains("&quot;result&quot;:&quot;SUCCESS&quot;"))

            // The 3-D Secure authentication the payment carried.
            #expect(html.contains("<h4>3-D Secure authentication</h4>"))
            #expect(html.contains("<dt>Status</dt><dd>AUTHENTICATION_SUCCESSFUL</dd>"))
            #expect(html.contains("<dt>ECI</dt><dd>02</dd>"))
            #expect(html.contains("<dt>transStatus</dt><dd>Y</dd>"))
            #expect(html.contains("<dt>DS transaction id</dt><dd>\(dsTransactionId)</dd>"))

            // The request, from what the receipt keeps: typed fields and the echoed ones as received.
            #expect(html.contains("<summary>Request (as the gateway read it; card data masked, secrets never stored)</summary>"))
            #expect(html.contains("<dt>apiOperation</dt><dd>PAY</dd>"))
            #expect(html.contains("<dt>Card</dt><dd>512345xxxxxx0008 (MASTERCARD) exp. 01/39</dd>"))
            #expect(html.contains("<dt>Authentication transaction</dt><dd>auth-1</dd>"))
            #expect(html.contains("&quot;city&quot;:&quot;Leeds&quot;"))
            #expect(html.contains("&quot;firstName&quot;:&quot;Ada&quot;"))
            #expect(html.contains("console test order"))

            #expect(!html.contains("5123450000000008"))
            #expect(!html.contains("securityCode"))
            #expect(!html.contains(">987<") && !html.contains("&quot;987&quot;"))
        }
    }

    @Test("an Apple Pay payment's request shows the device number masked and never the cryptogram")
    func applePayRequest() async throws {
        let services = try await console.console()
        let cryptogram = Data(repeating: 0x5A, count: 20).base64EncodedString()
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let token = try TestGateway.mintToken(amountMinorUnits: 5656) { request in
                request.details = .threeDSecure(onlinePaymentCryptogram: cryptogram, eciIndicator: "7")
            }
            let paid = try await client.put(
                TestGateway.path(order: "ma-wallet", transaction: "1"),
                TestGateway.tokenBody(token, operation: "PAY", amount: "56.56")
            )
            #expect(paid.string("result") == "SUCCESS")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let html = try await browser.get("/ma/orders/ma-wallet").html
            let request = try #require(html.components(separatedBy: "<summary>Request").dropFirst().first)
            #expect(request.contains("<dt>Device number</dt><dd>520424xxxxxx1488 exp. 12/30"))
            #expect(!html.contains("5204245250001488"))
            #expect(!html.contains(cryptogram))
            #expect(!html.contains("onlinePaymentCryptogram"))
        }
    }

    @Test("VOID from the order page voids an AUTHORIZED order once, however often the form is posted", arguments: StoreKind.allCases)
    func void(store: StoreKind) async throws {
        let services = try await console.console(store)
        try await console.application(services).test(.router) { client in
            try await console.addOperators(services)
            let authorized = try await client.put(
                TestGateway.path(order: "ma-void", transaction: "1"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "20.00")
            )
            #expect(authorized.string("order.status") == "AUTHORIZED")
            let browser = ConsoleBrowser(client)
            _ = try await browser.login(merchant: TestGateway.merchantId, name: "alice", password: MerchantConsoleTests.adminPassword)
            let page = try await browser.get("/ma/orders/ma-void")
            #expect(page.html.contains("<option value=\"1\">1 (AUTHORIZATION)</option>"))
            // The forms' transaction ids in page order: capture, refund, void.
            let voidId = try #require(page.hiddenValues("transactionId").dropFirst(2).first)
            let form = [("csrf", page.hidden("csrf") ?? ""), ("transactionId", voidId), ("target", "1")]
            for _ in 1...2 {
                let voided = try await browser.post("/ma/orders/ma-void/void", form)
                #expect(voided.status == .ok)
                #expect(voided.html.contains("VOID_AUTHORIZATION \(voidId): APPROVED"))
            }
            #expect(try await console.order(client, "ma-void").string("status") == "CANCELLED")
            let after = try await browser.get("/ma/orders/ma-void").html
            #expect(after.components(separatedBy: ": VOID_AUTHORIZATION ").count == 2, "one VOID transaction")
            #expect(after.contains("<h3>1: AUTHORIZATION 20.00 USD (voided)</h3>"))
            #expect(after.contains("<dt>apiOperation</dt><dd>VOID</dd>"))
            #expect(after.contains("<dt>Target transaction</dt><dd>1</dd>"))
            let audit = try await browser.get("/ma/audit").html
            #expect(audit.contains("submitted again: answered from the store, nothing done"))
        }
    }
}
