import Foundation
import GatewayCore
import HummingbirdTesting
import Testing

@testable import Gateway
@testable import MPGSAPI

/// `GET` and `POST .../merchant/{id}/paymentOptionsInquiry`: the merchant's options in the
/// reference's shape, narrowed by the filters, with every bad filter a precise error.
@Suite("Payment Options Inquiry")
struct PaymentOptionsInquiryTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    static func path(_ merchant: String = TestGateway.merchantId, version: Int = 100, query: String = "") -> String {
        "/api/rest/version/\(version)/merchant/\(merchant)/paymentOptionsInquiry\(query)"
    }

    static func values(_ exchange: Exchange, _ list: String, _ key: String) -> [String]? {
        (exchange.value(list) as? [[String: Any]])?.compactMap { $0[key] as? String }
    }

    @Test("unfiltered: card types with 3DS2, every currency, the sources, Apple Pay and Google Pay for a merchant with their keys")
    func unfiltered() async throws {
        try await gateway.application.test(.router) { client in
            let options = try await client.send(Self.path(), method: .get)
            #expect(options.status == .ok)
            #expect(options.isCanonicalJSON)
            #expect(options.string("merchant") == TestGateway.merchantId)
            #expect(options.string("result") == "SUCCESS")
            let cardTypes = try #require(options.value("paymentTypes.card.cardTypes") as? [[String: Any]])
            #expect(cardTypes.compactMap { $0["cardType"] as? String }.contains("MASTERCARD"))
            #expect(cardTypes.allSatisfy { ($0["3DSecureSchemes"] as? [[String: String]]) == [["name": "3DS2"]] })
            #expect(Self.values(options, "paymentTypes.card.currencies", "currency")?.contains("USD") == true)
            #expect((Self.values(options, "paymentTypes.card.currencies", "currency")?.count ?? 0) > 50)
            #expect(Self.values(options, "paymentTypes.card.transactionSources", "transactionSource")?.contains("INTERNET") == true)
            #expect(Self.values(options, "paymentTypes.card.walletProviders", "walletProvider") == ["APPLE_PAY", "GOOGLE_PAY"])
            #expect(options.string("paymentTypes.card.tokenization") == "SUPPORTED")
            #expect(
                Self.values(options, "supportedPaymentOperations", "supportedPaymentOperation") == ["AUTHORIZE", "PURCHASE", "VERIFY"]
            )
            #expect(options.value("transactionMode") == nil)

            // A merchant without an Apple Pay identity is offered no wallet.
            let other = try await client.send(
                Self.path(TestGateway.otherMerchantId),
                method: .get,
                authorization: TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            )
            #expect(other.status == .ok)
            #expect(Self.values(other, "paymentTypes.card.walletProviders", "walletProvider") == [])
        }
    }

    @Test("filters narrow the answer: a currency by query or body, a card prefix to its brand")
    func filters() async throws {
        try await gateway.application.test(.router) { client in
            let euros = try await client.send(Self.path(query: "?order.currency=EUR&order.amount=12.50&correlationId=c-1"), method: .get)
            #expect(euros.status == .ok, "\(euros.body)")
            #expect(Self.values(euros, "paymentTypes.card.currencies", "currency") == ["EUR"])
            #expect(euros.string("correlationId") == "c-1")
            let body = TestGateway.json([
                "order": ["currency": "GBP"], "sourceOfFunds": ["provided": ["card": ["prefix": "512345"]]],
            ])
            let posted = try await client.send(Self.path(), method: .post, body: body)
            #expect(posted.status == .ok, "\(posted.body)")
            #expect(Self.values(posted, "paymentTypes.card.cardTypes", "cardType") == ["MASTERCARD"])
            #expect(Self.values(posted, "paymentTypes.card.currencies", "currency") == ["GBP"])
            #expect(!posted.body.contains("512345"))
            let empty = try await client.send(Self.path(), method: .post)
            #expect(empty.status == .ok)
            // An empty prefix is an absent one (schemathesis sent one in CI: it left no brand).
            let emptyPrefix = try await client.send(
                Self.path(),
                method: .post,
                body: Data(#"{"sourceOfFunds":{"provided":{"card":{"prefix":""}}}}"#.utf8)
            )
            #expect(emptyPrefix.status == .ok, "\(emptyPrefix.body)")
            let allBrands = Self.values(empty, "paymentTypes.card.cardTypes", "cardType") ?? []
            #expect(!allBrands.isEmpty)
            #expect(Self.values(emptyPrefix, "paymentTypes.card.cardTypes", "cardType") == allBrands)
            let emptyQueryPrefix = try await client.send(Self.path(query: "?sourceOfFunds.provided.card.prefix="), method: .get)
            #expect(emptyQueryPrefix.status == .ok, "\(emptyQueryPrefix.body)")
            #expect(Self.values(emptyQueryPrefix, "paymentTypes.card.cardTypes", "cardType") == allBrands)
            // Versions before 52 also name the transaction mode.
            let old = try await client.send(Self.path(version: 45), method: .get)
            #expect(old.string("transactionMode") == "AUTHORIZE_CAPTURE")
        }
    }

    @Test(
        "a bad filter is a 400 naming the field",
        arguments: [
            (#"{"order":{"colour":"red"}}"#, "order.colour", "UNSUPPORTED"),
            (#"{"apiOperation":"PAYMENT_OPTIONS_INQUIRY","order":{"currency":"USD"}}"#, "apiOperation", "UNSUPPORTED"),
            (#"{"order":{"currency":"XXX"}}"#, "order.currency", "INVALID"),
            (#"{"order":{"currency":"usd"}}"#, "order.currency", "INVALID"),
            (#"{"order":{"amount":"1.234","currency":"USD"}}"#, "order.amount", "INVALID"),
            (#"{"order":{"amount":"1.00"}}"#, "order.currency", "MISSING"),
            (#"{"sourceOfFunds":{"provided":{"card":{"prefix":"51234x"}}}}"#, "sourceOfFunds.provided.card.prefix", "INVALID"),
            (#"{"correlationId":{"id":"7"}}"#, "correlationId", "INVALID"),
        ]
    )
    func badFilters(body: String, field: String, validationType: String) async throws {
        try await gateway.application.test(.router) { client in
            let refused = try await client.send(Self.path(), method: .post, body: Data(body.utf8))
            #expect(refused.status == .badRequest, "\(refused.body)")
            #expect(refused.string("result") == "ERROR")
            #expect(refused.string("error.field") == field, "\(refused.body)")
            #expect(refused.string("error.validationType") == validationType, "\(refused.body)")
            #expect(!refused.body.contains("51234x"))
        }
    }

    @Test("query parameters are checked as the body is; malformed JSON, credentials and methods as on every route")
    func refusals() async throws {
        try await gateway.application.test(.router) { client in
            let unknown = try await client.send(Self.path(query: "?colour=red"), method: .get)
            #expect(unknown.status == .badRequest)
            #expect(unknown.string("error.field") == "colour")
            let repeated = try await client.send(Self.path(query: "?order.currency=USD&order.currency=EUR"), method: .get)
            #expect(repeated.status == .badRequest)
            let malformed = try await client.send(Self.path(), method: .post, body: Data("{".utf8))
            #expect(malformed.status == .badRequest)
            #expect(malformed.string("error.cause") == "INVALID_REQUEST")
            let anonymous = try await client.send(Self.path(), method: .get, authorization: nil)
            #expect(anonymous.status == .unauthorized)
            // Credentials are checked before the filters, as on every route.
            let anonymousBadFilter = try await client.send(Self.path(query: "?colour=red"), method: .get, authorization: nil)
            #expect(anonymousBadFilter.status == .unauthorized)
            let anonymousPost = try await client.send(Self.path(), method: .post, body: Data("{".utf8), authorization: nil)
            #expect(anonymousPost.status == .unauthorized)
            let badVersion = try await client.send(Self.path(version: 101), method: .get)
            #expect(badVersion.status == .notFound)
            let elsewhere = try await client.send(Self.path(TestGateway.otherMerchantId), method: .get)
            #expect(elsewhere.status == .unauthorized)
            let put = try await client.send(Self.path(), method: .put, body: Data("{}".utf8))
            #expect(put.status == .methodNotAllowed)
        }
    }

    @Test("production: no 3-D Secure scheme is advertised, since INITIATE_AUTHENTICATION is refused there")
    func productionAdvertisesNo3DS() async throws {
        let production = try await TestGateway(mode: .production)
        try await production.application.test(.live) { client in
            let options = try await client.send(Self.path(), method: .get)
            #expect(options.status == .ok)
            let cardTypes = try #require(options.value("paymentTypes.card.cardTypes") as? [[String: Any]])
            #expect(!cardTypes.isEmpty)
            #expect(cardTypes.allSatisfy { $0["3DSecureSchemes"] == nil })
            let initiated = try await client.put(
                TestGateway.path(order: "no-3ds", transaction: "a"),
                TestGateway.json([
                    "apiOperation": "INITIATE_AUTHENTICATION", "order": ["currency": "USD"],
                    "sourceOfFunds": ["type": "CARD", "provided": ["card": ["number": "5123450000000008"]]],
                ])
            )
            #expect(initiated.status == .badRequest)
            #expect(initiated.string("error.field") == "apiOperation")
        }
    }
}
