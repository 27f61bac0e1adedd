import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import Gateway

/// `/sandbox/googlepay/*` and Google Pay on the Hosted Checkout page, over TCP, as the sandbox
/// sheet in a merchant's page (cross-origin, no credential) and the payment page's script call
/// them. The browser itself, with the real script, is `.ci/googlepay-browser-test`.
@Suite("Sandbox Google Pay for the web")
struct SandboxGooglePayWebTests {
    static let shopOrigin = "http://shop.example:8080"
    static let paymentDataPath = "/sandbox/googlepay/payment-data"

    static func request(
        gateway: String = "mpgs",
        merchant: String = TestGateway.merchantId,
        card: String = "visa",
        authMethod: String = "PAN_ONLY"
    ) -> [String: String] {
        ["gateway": gateway, "gatewayMerchantId": merchant, "card": card, "authMethod": authMethod]
    }

    /// A request the sheet's endpoint refuses, and words its refusal must hold.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var body: [String: String]
        var words: String
        var testDescription: String { words }
    }

    @Test("pay.js is served; the sheet's payment data AUTHORIZEs as Google Pay, PAN_ONLY and CRYPTOGRAM_3DS")
    func mintAndAuthorize() async throws {
        let gateway = try await TestGateway(googlePay: true)
        try await gateway.application.test(.live) { client in
            let script = try await SandboxApplePayWebTests.exchange(client, "/sandbox/googlepay/pay.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.hasPrefix("application/javascript") == true)
            #expect(script.body.contains("google.payments.api.PaymentsClient = PaymentsClient"))
            #expect(!script.body.contains("4508750015741019"), "the script lists no card numbers")

            for (index, (card, method)) in [("visa", "PAN_ONLY"), ("mastercard", "CRYPTOGRAM_3DS")].enumerated() {
                let minted = try await SandboxApplePayWebTests.exchange(
                    client,
                    Self.paymentDataPath,
                    body: Self.request(card: card, authMethod: method),
                    origin: Self.shopOrigin
                )
                #expect(minted.status == .ok, "\(minted.body)")
                #expect(minted.headers[.accessControlAllowOrigin] == "*")
                #expect(minted.string("paymentMethodData.type") == "CARD")
                #expect(minted.string("paymentMethodData.info.cardNetwork") == (card == "visa" ? "VISA" : "MASTERCARD"))
                #expect(minted.string("paymentMethodData.info.cardDetails") == (card == "visa" ? "1019" : "0008"))
                #expect(minted.string("paymentMethodData.tokenizationData.type") == "PAYMENT_GATEWAY")
                let token = try #require(minted.string("paymentMethodData.tokenizationData.token"))
                let parsed = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
                #expect(parsed["protocolVersion"] as? String == "ECv2")

                let authorized = try await client.put(
                    TestGateway.path(order: "web-google-pay-\(index)", transaction: "1"),
                    TestGateway.tokenBody(token, amount: "56.56", walletProvider: "GOOGLE_PAY")
                )
                #expect(authorized.status == .created, "\(authorized.body)")
                #expect(authorized.string("response.gatewayCode") == "APPROVED", "\(authorized.body)")
                #expect(authorized.string("order.walletProvider") == "GOOGLE_PAY")

                // Google's four-digit year is kept as the gateway keeps every card's: 01/39.
                let order = try await client.send(
                    "/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/web-google-pay-\(index)",
                    method: .get
                )
                #expect(order.string("status") == "AUTHORIZED", "\(order.body)")
                #expect(order.body.contains(#""expiry":{"month":"1","year":"39"}"#), "\(order.body)")
            }
        }
    }

    @Test(
        "another gateway, an unknown merchant, one without Google Pay and bad choices are refused in Google's shape",
        arguments: [
            Refusal(body: request(gateway: "example"), words: "gateway 'example' is not this gateway: use mpgs"),
            Refusal(body: request(merchant: "NOBODY"), words: "gatewayMerchantId 'NOBODY' is no merchant with Google Pay"),
            Refusal(body: request(merchant: TestGateway.otherMerchantId), words: "gatewayMerchantId '\(TestGateway.otherMerchantId)'"),
            Refusal(body: request(card: "amex"), words: "card 'amex'"),
            Refusal(body: request(authMethod: "PIN"), words: "authMethod 'PIN'"),
            Refusal(body: ["gateway": "mpgs"], words: "gatewayMerchantId is required"),
        ]
    )
    func refusals(refusal: Refusal) async throws {
        let gateway = try await TestGateway(googlePay: true)
        try await gateway.application.test(.live) { client in
            let refused = try await SandboxApplePayWebTests.exchange(
                client,
                Self.paymentDataPath,
                body: refusal.body,
                origin: Self.shopOrigin
            )
            #expect(refused.status == .badRequest)
            #expect(refused.string("statusCode") == "DEVELOPER_ERROR")
            #expect(refused.string("statusMessage")?.contains(refusal.words) == true, "\(refused.body)")
            #expect(refused.headers[.accessControlAllowOrigin] == "*", "the page must be able to read why")
            #expect(refused.value("paymentMethodData") == nil)
        }
    }

    @Test("the sheet's endpoint answers a CORS preflight from any origin, without credentials")
    func preflight() async throws {
        let gateway = try await TestGateway(googlePay: true)
        try await gateway.application.test(.live) { client in
            let answer = try await client.execute(
                uri: Self.paymentDataPath,
                method: .options,
                headers: [.origin: Self.shopOrigin, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "content-type"]
            ) { $0 }
            #expect(answer.status == .noContent)
            #expect(answer.headers[.accessControlAllowOrigin] == "*")
            #expect(answer.headers[.accessControlAllowHeaders]?.lowercased().contains("content-type") == true)
            #expect(answer.headers[.accessControlAllowCredentials] == nil)
        }
    }

    @Test("production mode has neither the script nor the mint endpoint")
    func notInProduction() async throws {
        let gateway = try await TestGateway(mode: .production, googlePay: true)
        try await gateway.application.test(.live) { client in
            let script = try await SandboxApplePayWebTests.exchange(client, "/sandbox/googlepay/pay.js", method: .get)
            #expect(script.status == .notFound)
            let minted = try await SandboxApplePayWebTests.exchange(client, Self.paymentDataPath, body: Self.request(), origin: Self.shopOrigin)
            #expect(minted.status == .notFound)
            #expect(minted.value("paymentMethodData") == nil)
        }
    }

    @Test("Hosted Checkout offers Google Pay to a merchant with it, and its token pays the order through the API's path")
    func hostedCheckout() async throws {
        let gateway = try await TestGateway(googlePay: true)
        try await gateway.application.test(.live) { client in
            let checkout = try await HostedCheckoutTests.Checkout.start(client, HostedCheckoutTests.initiate())
            let page = try await checkout.page(client)
            #expect(page.body.contains("id=\"google-pay-button\""))
            #expect(page.body.contains("<script src=\"/sandbox/googlepay/pay.js\"></script>"))
            #expect(page.body.contains("\"gatewayMerchantId\":\"\(TestGateway.merchantId)\""))
            let formToken = try #require(HostedCheckoutTests.attribute(named: "formToken", in: page.body))

            let minted = try await SandboxApplePayWebTests.exchange(client, Self.paymentDataPath, body: Self.request())
            let paymentMethodData = try #require(minted.value("paymentMethodData"))
            let paymentData: [String: Any] = ["apiVersion": 2, "apiVersionMinor": 0, "paymentMethodData": paymentMethodData]

            let foreign = try await SandboxApplePayWebTests.exchange(
                client,
                "/checkout/googlepay/\(checkout.sessionId)/pay",
                body: ["formToken": "not-the-page's", "paymentData": paymentData]
            )
            #expect(foreign.status == .forbidden)

            let paid = try await SandboxApplePayWebTests.exchange(
                client,
                "/checkout/googlepay/\(checkout.sessionId)/pay",
                body: ["formToken": formToken, "paymentData": paymentData]
            )
            #expect(paid.status == .ok, "\(paid.body)")
            #expect(paid.string("result") == "SUCCESS", "\(paid.body)")
            #expect(paid.string("next")?.hasPrefix(HostedCheckoutTests.returnUrl + "&resultIndicator=\(checkout.successIndicator)") == true)

            let order = try await client.send(checkout.orderPath, method: .get)
            #expect(order.string("status") == "CAPTURED", "\(order.body)")
            #expect(order.string("walletProvider") == "GOOGLE_PAY", "\(order.body)")
        }
    }

    @Test("a merchant without Google Pay is not offered it, and its page's Google Pay path pays nothing")
    func hostedCheckoutWithoutGooglePay() async throws {
        let gateway = try await TestGateway(googlePay: false)
        try await gateway.application.test(.live) { client in
            let checkout = try await HostedCheckoutTests.Checkout.start(client, HostedCheckoutTests.initiate())
            let page = try await checkout.page(client)
            #expect(!page.body.contains("google-pay-button"))
            #expect(!page.body.contains("googlepay/pay.js"))
            let formToken = try #require(HostedCheckoutTests.attribute(named: "formToken", in: page.body))
            let refused = try await SandboxApplePayWebTests.exchange(
                client,
                "/checkout/googlepay/\(checkout.sessionId)/pay",
                body: ["formToken": formToken, "paymentData": ["paymentMethodData": ["tokenizationData": ["token": "{}"]]]]
            )
            #expect(refused.string("result") == "ERROR", "\(refused.body)")
            #expect(refused.string("message")?.contains("Google Pay is not available") == true, "\(refused.body)")
            let order = try await client.send(checkout.orderPath, method: .get)
            #expect(order.status != .ok)
        }
    }
}
