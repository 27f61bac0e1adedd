import Crypto
import Foundation
import GatewayCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import Gateway

/// `/sandbox/applepay/*` over TCP, as a merchant's server (the validation URL) and the sandbox
/// sheet in a merchant's page (the session check and the payment, cross-origin) call them.
@Suite("Sandbox Apple Pay for the web")
struct SandboxApplePayWebTests {
    static let merchantIdentifier = "merchant.com.example.gateway.sandbox"
    static let shopOrigin = "http://shop.example:8080"
    static var validation: [String: Any] {
        [
            "merchantIdentifier": merchantIdentifier, "displayName": "Sandbox Shop", "initiative": "web",
            "initiativeContext": "shop.example",
        ]
    }

    @Test("validate, pay from the shop's origin, then AUTHORIZE with the sheet's paymentData: approved as Apple Pay")
    func validateAndPay() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let script = try await Self.exchange(client, "/sandbox/applepay/apple-pay.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.hasPrefix("application/javascript") == true)
            #expect(script.body.contains("class ApplePaySession extends EventTarget"))

            let validated = try await Self.exchange(client, "/sandbox/applepay/validate", body: Self.validation)
            #expect(validated.status == .ok, "\(validated.body)")
            let session = validated.json
            let hash = SHA256.hash(data: Data(Self.merchantIdentifier.utf8)).map { String(format: "%02X", $0) }.joined()
            #expect(session["merchantIdentifier"] as? String == hash)
            #expect(session["domainName"] as? String == "shop.example")
            #expect(session["displayName"] as? String == "Sandbox Shop")
            #expect(session["retries"] as? Int == 0)
            let issued = try #require((session["epochTimestamp"] as? NSNumber)?.int64Value)
            #expect((session["expiresAt"] as? NSNumber)?.int64Value == issued + 300_000)
            #expect((session["signature"] as? String)?.count == 64)

            let checked = try await Self.exchange(
                client,
                "/sandbox/applepay/session",
                body: ["merchantSession": session],
                origin: Self.shopOrigin
            )
            #expect(checked.status == .ok, "\(checked.body)")
            #expect(checked.string("displayName") == "Sandbox Shop")

            let paid = try await Self.exchange(client, "/sandbox/applepay/payment", body: Self.payment(session), origin: Self.shopOrigin)
            #expect(paid.status == .ok, "\(paid.body)")
            #expect(paid.headers[.accessControlAllowOrigin] == "*")
            let paymentData = try #require(paid.value("token.paymentData") as? [String: Any])
            #expect(paymentData["version"] as? String == "EC_v1")
            #expect(paid.string("token.paymentMethod.network") == "MasterCard")
            #expect(paid.string("token.paymentMethod.displayName") == "MasterCard 0008")
            #expect(paid.string("token.transactionIdentifier") == paid.string("token.paymentData.header.transactionId")?.uppercased())

            let token = String(decoding: try JSONSerialization.data(withJSONObject: paymentData, options: .withoutEscapingSlashes), as: UTF8.self)
            let authorized = try await client.put(
                TestGateway.path(order: "web-apple-pay", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(authorized.status == .created, "\(authorized.body)")
            #expect(authorized.string("response.gatewayCode") == "APPROVED")
            #expect(authorized.string("order.walletProvider") == "APPLE_PAY")
            #expect(authorized.string("sourceOfFunds.provided.card.deviceSpecificNumber") == "512345xxxxxx0008")
        }
    }

    @Test("a forged or altered merchant session pays nothing")
    func forgedSession() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let session = try await Self.exchange(client, "/sandbox/applepay/validate", body: Self.validation).json
            var altered = session
            altered["displayName"] = "Another Shop"
            var forged = session
            forged["signature"] = String(repeating: "ab", count: 32)
            for bad in [altered, forged] {
                let paid = try await Self.exchange(client, "/sandbox/applepay/payment", body: Self.payment(bad), origin: Self.shopOrigin)
                #expect(paid.status == .badRequest)
                #expect(paid.string("error.field") == "merchantSession.signature")
                #expect(paid.headers[.accessControlAllowOrigin] == "*", "the page must be able to read why")
                #expect(paid.value("token") == nil)
            }
        }
    }

    @Test("a merchant session pays only before it expires and only from the page's own domain")
    func expiredOrElsewhere() async throws {
        let clock = TestClock()
        let gateway = try await TestGateway(clock: clock.now)
        try await gateway.application.test(.live) { client in
            let session = try await Self.exchange(client, "/sandbox/applepay/validate", body: Self.validation).json
            let elsewhere = try await Self.exchange(
                client,
                "/sandbox/applepay/payment",
                body: Self.payment(session),
                origin: "https://attacker.example"
            )
            #expect(elsewhere.status == .badRequest)
            #expect(elsewhere.string("error.field") == "merchantSession.domainName")
            let noOrigin = try await Self.exchange(client, "/sandbox/applepay/payment", body: Self.payment(session))
            #expect(noOrigin.string("error.field") == "Origin")

            clock.advance(by: 301)
            let expired = try await Self.exchange(client, "/sandbox/applepay/payment", body: Self.payment(session), origin: Self.shopOrigin)
            #expect(expired.status == .badRequest)
            #expect(expired.string("error.field") == "merchantSession.expiresAt")
        }
    }

    @Test("an unknown merchant identifier is refused, naming the field and what is configured")
    func unknownMerchantIdentifier() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            var body = Self.validation
            body["merchantIdentifier"] = "merchant.com.example.unknown"
            let refused = try await Self.exchange(client, "/sandbox/applepay/validate", body: body)
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.field") == "merchantIdentifier")
            #expect(refused.string("error.explanation")?.contains("TESTMERCHANT") == true)

            body = Self.validation
            body["initiativeContext"] = "https://shop.example/checkout"
            let url = try await Self.exchange(client, "/sandbox/applepay/validate", body: body)
            #expect(url.string("error.field") == "initiativeContext")

            // The older shape, with domainName, is Apple's too.
            let legacy = try await Self.exchange(
                client,
                "/sandbox/applepay/validate",
                body: ["merchantIdentifier": Self.merchantIdentifier, "displayName": "Shop", "domainName": "shop.example"]
            )
            #expect(legacy.status == .ok, "\(legacy.body)")
        }
    }

    @Test("the sheet's endpoints answer a CORS preflight from any origin")
    func preflight() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            for path in ["/sandbox/applepay/payment", "/sandbox/applepay/session"] {
                let answer = try await client.execute(
                    uri: path,
                    method: .options,
                    headers: [
                        .origin: Self.shopOrigin, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "content-type",
                    ]
                ) { $0 }
                #expect(answer.status == .noContent)
                #expect(answer.headers[.accessControlAllowOrigin] == "*")
                #expect(answer.headers[.accessControlAllowMethods]?.contains("POST") == true)
                #expect(answer.headers[.accessControlAllowHeaders]?.lowercased().contains("content-type") == true)
                #expect(answer.headers[.accessControlAllowCredentials] == nil)
            }
        }
    }

    @Test("bad payment input is refused naming the field, and mints nothing")
    func badPaymentInput() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let session = try await Self.exchange(client, "/sandbox/applepay/validate", body: Self.validation).json
            var cases: [(body: [String: Any], field: String)] = []
            var body = Self.payment(session)
            body["total"] = nil
            cases.append((body, "total"))
            body = Self.payment(session)
            body["total"] = ["label": "Shop", "amount": "12.345"]
            cases.append((body, "total.amount"))
            body = Self.payment(session)
            body["card"] = "amex"
            cases.append((body, "card"))
            body = Self.payment(session)
            body["currencyCode"] = "XYZ"
            cases.append((body, "currencyCode"))
            body = Self.payment(session)
            body["merchantSession"] = nil
            cases.append((body, "merchantSession"))
            for (body, field) in cases {
                let refused = try await Self.exchange(client, "/sandbox/applepay/payment", body: body, origin: Self.shopOrigin)
                #expect(refused.status == .badRequest, "\(field): \(refused.body)")
                #expect(refused.string("error.field") == field, "\(refused.body)")
            }
        }
    }

    // MARK: - Helpers

    static func payment(_ session: [String: Any], amount: String = "56.56") -> [String: Any] {
        [
            "merchantSession": session, "total": ["label": "Sandbox Shop", "amount": amount], "currencyCode": "USD",
            "countryCode": "US", "card": "mastercard",
        ]
    }

    static func exchange(
        _ client: some TestClientProtocol,
        _ path: String,
        method: HTTPRequest.Method = .post,
        body: [String: Any]? = nil,
        origin: String? = nil
    ) async throws -> Exchange {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let origin { headers[.origin] = origin }
        let bytes = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await client.execute(uri: path, method: method, headers: headers, body: bytes.map { ByteBuffer(bytes: Array($0)) }) {
            response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return Exchange(status: response.status, body: text, json: json, headers: response.headers)
        }
    }
}
