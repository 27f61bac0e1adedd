import ApplePaySandbox
import ApplePayToken
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

@Suite("The sandbox token endpoint")
struct SandboxTokenEndpointTests {
    static let mintPath = "/sandbox/merchant/TESTMERCHANT/applepay/token"
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    @Test("mint, then AUTHORIZE: approved at 56.56 and declined at 57.57, for both token versions", arguments: ["EC_v1", "RSA_v1"])
    func mintThenAuthorize(version: String) async throws {
        try await gateway.application.test(.router) { client in
            for (amount, gatewayCode) in [("56.56", "APPROVED"), ("57.57", "DECLINED")] {
                let minted = try await client.send(
                    Self.mintPath,
                    method: .post,
                    body: TestGateway.json(["amount": amount, "currency": "USD", "version": version])
                )
                #expect(minted.status == .ok, "\(minted.body)")
                #expect(minted.string("version") == version)
                let token = try #require(minted.string("paymentToken"))
                let parsed = try PaymentToken(parsing: token)
                #expect(parsed.version.rawValue == version)
                #expect(minted.string("transactionIdentifier") == parsed.header.transactionId)

                let authorized = try await client.put(
                    TestGateway.path(order: "mint-\(version)-\(amount)", transaction: "1"),
                    TestGateway.tokenBody(token, amount: amount)
                )
                #expect(authorized.status == .created, "\(authorized.body)")
                #expect(authorized.string("response.gatewayCode") == gatewayCode)
            }
        }
    }

    @Test("every option reaches the decrypted payment data")
    func options() async throws {
        let minted = try await mint([
            "amount": "1234", "currency": "JPY", "applicationPrimaryAccountNumber": "4111111111111111",
            "applicationExpirationDate": "291130", "cardholderName": "Jane Appleseed",
            "onlinePaymentCryptogram": "QUJDREVGR0hJSktMTU5PUFFSU1Q=", "eciIndicator": "5", "applicationData": "0a0b0c",
        ])
        #expect(minted["applicationData"] == Data([0x0a, 0x0b, 0x0c]).base64EncodedString())
        let token = try PaymentToken(parsing: try #require(minted["paymentToken"]))
        let decrypted = try await gateway.services.decryptor.decrypt(
            token,
            using: try #require(gateway.services.merchants["TESTMERCHANT"]).keyRing
        )
        let data = decrypted.paymentData
        #expect(data.applicationPrimaryAccountNumber == "4111111111111111")
        #expect(data.applicationExpirationDate == "291130")
        #expect(data.currencyCode == "392")
        #expect(data.transactionAmount == 1234)
        #expect(data.cardholderName == "Jane Appleseed")
        #expect(token.header.applicationData == Array(SHA256.hash(data: [0x0a, 0x0b, 0x0c])))
    }

    @Test("an EMV token says so in its payment data")
    func emv() async throws {
        let minted = try await mint(["amount": "10.00", "currency": "USD", "paymentDataType": "EMV"])
        let token = try PaymentToken(parsing: try #require(minted["paymentToken"]))
        let decrypted = try await gateway.services.decryptor.decrypt(
            token,
            using: try #require(gateway.services.merchants["TESTMERCHANT"]).keyRing
        )
        #expect(decrypted.paymentData.paymentDataType == .emv)
    }

    @Test("the application data a token was minted with must come back with the payment")
    func applicationData() async throws {
        let minted = try await mint(["amount": "56.56", "currency": "USD", "applicationData": "6f726465722d3432"])
        let token = try #require(minted["paymentToken"])
        let applicationData = try #require(minted["applicationData"])
        try await gateway.application.test(.router) { client in
            let wrong = try await client.put(
                TestGateway.path(order: "appdata", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56", extraDevicePayment: ["applicationData": "b3RoZXI="])
            )
            #expect(wrong.status == .badRequest)
            let right = try await client.put(
                TestGateway.path(order: "appdata", transaction: "2"),
                TestGateway.tokenBody(token, amount: "56.56", extraDevicePayment: ["applicationData": applicationData])
            )
            #expect(right.string("response.gatewayCode") == "APPROVED", "\(right.body)")
        }
    }

    @Test("a token signed outside the window is rejected by the gateway")
    func oldSigningTime() async throws {
        let anHourAgo = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        let minted = try await mint(["amount": "56.56", "currency": "USD", "signingTime": anHourAgo])
        #expect(minted["signingTime"] == anHourAgo)
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "old-token", transaction: "1"),
                TestGateway.tokenBody(try #require(minted["paymentToken"]), amount: "56.56")
            )
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("error.explanation")?.contains("SIGNING_TIME_OUTSIDE_WINDOW") == true, "\(exchange.body)")
            let order = try await client.send("/api/rest/version/100/merchant/TESTMERCHANT/order/old-token", method: .get)
            #expect(order.status == .notFound, "a rejected token created an order")
        }
    }

    @Test(
        "bad options are MPGS errors naming the field",
        arguments: [
            (["currency": "USD"], "amount", "MISSING"),
            (["amount": "1.00"], "currency", "MISSING"),
            (["amount": "1.001", "currency": "USD"], "amount", "INVALID"),
            (["amount": "0", "currency": "USD"], "amount", "INVALID"),
            (["amount": "1.00", "currency": "XYZ"], "currency", "INVALID"),
            (["amount": "1.00", "currency": "USD", "version": "EC_v2"], "version", "INVALID"),
            (["amount": "1.00", "currency": "USD", "paymentDataType": "MAGSTRIPE"], "paymentDataType", "INVALID"),
            (["amount": "1.00", "currency": "USD", "applicationPrimaryAccountNumber": "4111-1111"], "applicationPrimaryAccountNumber", "INVALID"),
            (["amount": "1.00", "currency": "USD", "applicationExpirationDate": "301340"], "applicationExpirationDate", "INVALID"),
            (["amount": "1.00", "currency": "USD", "applicationData": "xyz"], "applicationData", "INVALID"),
            (["amount": "1.00", "currency": "USD", "signingTime": "yesterday"], "signingTime", "INVALID"),
            (["amount": "1.00", "currency": "USD", "paymentDataType": "EMV", "eciIndicator": "5"], "eciIndicator", "UNSUPPORTED"),
            (["amount": "1.00", "currency": "USD", "pan": "4111111111111111"], "pan", "UNSUPPORTED"),
        ]
    )
    func invalid(body: [String: String], field: String, validationType: String) async throws {
        try await gateway.application.test(.router) { client in
            let exchange = try await client.send(Self.mintPath, method: .post, body: TestGateway.json(body))
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("result") == "ERROR")
            #expect(exchange.string("error.field") == field, "\(exchange.body)")
            #expect(exchange.string("error.validationType") == validationType)
        }
    }

    @Test("other methods are 405 with Allow, here and on the MPGS paths")
    func methodNotAllowed() async throws {
        try await gateway.application.test(.router) { client in
            for (path, method, allow) in [
                (Self.mintPath, HTTPRequest.Method.get, "POST"),
                (Self.mintPath, .delete, "POST"),
                (TestGateway.path(order: "o", transaction: "t"), .delete, "PUT, GET"),
                ("/api/rest/version/100/information", .post, "GET"),
            ] {
                try await client.execute(uri: path, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allow)
                }
            }
        }
    }

    @Test("the endpoint takes the API's credentials, for the merchant in the path only")
    func authentication() async throws {
        try await gateway.application.test(.router) { client in
            let body = TestGateway.json(["amount": "1.00", "currency": "USD"])
            let anonymous = try await client.send(Self.mintPath, method: .post, body: body, authorization: nil)
            #expect(anonymous.status == .unauthorized)
            let wrong = try await client.send(
                Self.mintPath,
                method: .post,
                body: body,
                authorization: TestGateway.authorization(TestGateway.merchantId, TestGateway.otherPassword)
            )
            #expect(wrong.status == .unauthorized)
            let other = try await client.send(
                Self.mintPath,
                method: .post,
                body: body,
                authorization: TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            )
            #expect(other.status == .forbidden || other.status == .unauthorized, "\(other.body)")
            // OTHERMERCHANT has no Apple Pay identity: nothing to encrypt its tokens to.
            let noIdentity = try await client.send(
                "/sandbox/merchant/OTHERMERCHANT/applepay/token",
                method: .post,
                body: body,
                authorization: TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            )
            #expect(noIdentity.status == .badRequest)
            #expect(noIdentity.string("error.field") == "version")
        }
    }

    /// The endpoint's answer, as the text fields it holds.
    private func mint(_ body: [String: String]) async throws -> [String: String] {
        try await gateway.application.test(.router) { client in
            let exchange = try await client.send(Self.mintPath, method: .post, body: TestGateway.json(body))
            #expect(exchange.status == .ok, "\(exchange.body)")
            return exchange.json.compactMapValues { $0 as? String }
        }
    }
}
