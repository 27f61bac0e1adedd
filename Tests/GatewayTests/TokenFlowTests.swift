import Foundation
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore
@testable import MPGSAPI

/// Tokenization through a real socket: Create, Retrieve, Update and Delete Token, and payments
/// with `sourceOfFunds.token`, as a merchant server using an MPGS client sends them.
@Suite("Tokenization")
struct TokenFlowTests {
    @Test("create from a card, retrieve masked, pay with it, update, delete, then pay again refused", arguments: StoreKind.allCases)
    func lifecycle(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        try await gateway.application.test(.live) { client in
            let created = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TokenRequests.card(securityCode: "100", extra: ["correlationId": "c-1"])
            )
            #expect(created.status == .created, "\(created.body)")
            #expect(created.string("result") == "SUCCESS")
            #expect(created.string("status") == "VALID")
            #expect(created.string("repositoryId") == TestGateway.merchantId)
            #expect(created.string("verificationStrategy") == "BASIC")
            #expect(created.string("response.gatewayCode") == "BASIC_VERIFICATION_SUCCESSFUL")
            #expect(created.string("correlationId") == "c-1")
            #expect(created.string("sourceOfFunds.type") == "CARD")
            #expect(created.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(created.string("sourceOfFunds.provided.card.expiry") == "0139")
            #expect(created.string("sourceOfFunds.provided.card.brand") == "MASTERCARD")
            #expect(created.string("usage.lastUpdatedBy") == TestGateway.merchantId)
            #expect(created.string("usage.lastUpdated") != nil)
            #expect(!created.body.contains("5123450000000008") && !created.body.contains("securityCode"))
            let token = try #require(created.string("token"))
            #expect(token.count == 16 && token.hasPrefix("9") && Luhn.isValid(token))

            let retrieved = try await client.send(TokenRequests.tokenPath(token), method: .get)
            #expect(retrieved.status == .ok)
            #expect(retrieved.string("token") == token)
            #expect(retrieved.string("status") == "VALID")
            #expect(retrieved.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(!retrieved.body.contains("5123450000000008"))

            let paid = try await client.put(TestGateway.path(order: "tok-\(store)", transaction: "1"), TokenRequests.payment(token))
            #expect(paid.status == .created, "\(paid.body)")
            #expect(paid.string("result") == "SUCCESS")
            #expect(paid.string("sourceOfFunds.token") == token)
            #expect(paid.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(paid.string("sourceOfFunds.provided.card.expiry.year") == "39")
            let order = try await client.send("/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/tok-\(store)", method: .get)
            #expect(order.string("status") == "CAPTURED")
            #expect(((order.value("transaction") as? [[String: Any]])?.first?["sourceOfFunds"] as? [String: Any])?["token"] as? String == token)

            // A new expiry for the same card: the same token, updated.
            let updated = try await client.put(TokenRequests.tokenPath(token), TokenRequests.card(month: "5", year: "39"))
            #expect(updated.status == .ok, "\(updated.body)")
            #expect(updated.string("token") == token)
            #expect(updated.string("sourceOfFunds.provided.card.expiry") == "0539")
            // The simulator declines 05/39: the payment reads the updated card.
            let declined = try await client.put(TestGateway.path(order: "tok-\(store)-2", transaction: "1"), TokenRequests.payment(token))
            #expect(declined.string("response.gatewayCode") == "DECLINED", "\(declined.body)")

            let deleted = try await client.send(TokenRequests.tokenPath(token), method: .delete)
            #expect(deleted.status == .ok)
            #expect(deleted.string("result") == "SUCCESS")
            #expect(try await client.send(TokenRequests.tokenPath(token), method: .get).status == .notFound)
            #expect(try await client.send(TokenRequests.tokenPath(token), method: .delete).status == .notFound)

            let refused = try await client.put(TestGateway.path(order: "tok-\(store)-3", transaction: "1"), TokenRequests.payment(token))
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.field") == "sourceOfFunds.token")
            #expect(refused.string("error.validationType") == "INVALID")
            // An identical retry of the paid request still gets its stored response.
            let retry = try await client.put(TestGateway.path(order: "tok-\(store)", transaction: "1"), TokenRequests.payment(token))
            #expect(retry.body == paid.body)
        }
    }

    @Test("AUTHORIZE and VERIFY pay with a token; request fields, then a session's, win over the token's")
    func operationsAndPrecedence() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let token = try await client.newToken()
            let authorized = try await client.put(
                TestGateway.path(order: "tok-auth", transaction: "1"),
                TokenRequests.payment(token, operation: "AUTHORIZE")
            )
            #expect(authorized.string("result") == "SUCCESS", "\(authorized.body)")
            #expect(authorized.string("transaction.type") == "AUTHORIZATION")
            let verified = try await client.put(
                TestGateway.path(order: "tok-verify", transaction: "1"),
                TokenRequests.payment(token, operation: "VERIFY")
            )
            #expect(verified.string("result") == "SUCCESS", "\(verified.body)")
            #expect(verified.string("order.status") == "VERIFIED")
            // The request's expiry (05/39, the simulator's decline) over the token's 01/39, and its
            // security code (102, NO_MATCH) joined to the token's number.
            let overridden = try await client.put(
                TestGateway.path(order: "tok-override", transaction: "1"),
                TokenRequests.payment(
                    token,
                    extra: [
                        "sourceOfFunds": [
                            "type": "CARD", "token": token,
                            "provided": ["card": ["expiry": ["month": "5", "year": "39"], "securityCode": "102"]],
                        ]
                    ]
                )
            )
            #expect(overridden.string("response.gatewayCode") == "DECLINED", "\(overridden.body)")
            #expect(overridden.string("sourceOfFunds.provided.card.number") == "512345xxxxxx0008")
            #expect(overridden.string("response.cardSecurityCode.gatewayCode") == "NO_MATCH")

            // A session's card wins over the token's: the session holds a Visa, the token a Mastercard.
            let session = try await client.newSessionId()
            _ = try await client.put(SessionRequests.sessionPath(session), SessionRequests.cardUpdate(number: "4508750015741019"))
            let fromSession = try await client.put(
                TestGateway.path(order: "tok-session", transaction: "1"),
                TokenRequests.payment(token, extra: ["session": ["id": session]])
            )
            #expect(fromSession.string("result") == "SUCCESS", "\(fromSession.body)")
            #expect(fromSession.string("sourceOfFunds.provided.card.number") == "450875xxxxxx1019")
            #expect(fromSession.string("sourceOfFunds.token") == token)
        }
    }

    @Test(
        "a token beside Apple Pay data (decrypted cryptogram, Apple Pay token, or a session's) is refused, naming the device payment; nothing is recorded"
    )
    func tokenWithApplePay() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let token = try await client.newToken()
            let applePay = try TestGateway.mintToken(amountMinorUnits: 5656)
            let decrypted: [String: Any] = [
                "cryptogramFormat": "3DSECURE", "onlinePaymentCryptogram": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=", "eciIndicator": "05",
            ]
            for (order, devicePayment) in [("tok-dp-1", decrypted), ("tok-dp-2", ["paymentToken": applePay])] {
                let refused = try await client.put(
                    TestGateway.path(order: order, transaction: "1"),
                    TokenRequests.payment(
                        token,
                        extra: [
                            "order": ["amount": "56.56", "currency": "USD", "walletProvider": "APPLE_PAY"],
                            "sourceOfFunds": ["type": "CARD", "token": token, "provided": ["card": ["devicePayment": devicePayment]]],
                        ]
                    )
                )
                #expect(refused.status == .badRequest, "\(refused.body)")
                #expect(refused.string("error.field") == "sourceOfFunds.provided.card.devicePayment")
                #expect(refused.string("error.validationType") == "UNSUPPORTED")
                #expect(!refused.body.contains(applePay.prefix(40)) && !refused.body.contains("AAAAAAAAAAAA"))
                #expect(
                    try await client.send("/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/\(order)", method: .get).status == .notFound
                )
            }

            // The Apple Pay token in the session, the gateway token in the request: refused, and
            // the session is not used up.
            let session = try await client.newSessionId()
            _ = try await client.put(
                SessionRequests.sessionPath(session),
                SessionRequests.tokenUpdate(applePay),
                authorization: SessionRequests.sessionCredential(session)
            )
            let mixed = try await client.put(
                TestGateway.path(order: "tok-dp-3", transaction: "1"),
                TokenRequests.payment(token, extra: ["session": ["id": session]])
            )
            #expect(mixed.status == .badRequest, "\(mixed.body)")
            #expect(mixed.string("error.field") == "sourceOfFunds.provided.card.devicePayment")
            #expect(try await client.send(SessionRequests.sessionPath(session), method: .get).status == .ok)
            let wallet = try await client.put(
                TestGateway.path(order: "tok-dp-3", transaction: "2"),
                TestGateway.json(["apiOperation": "PAY", "order": ["amount": "56.56", "currency": "USD"], "session": ["id": session]])
            )
            #expect(wallet.string("result") == "SUCCESS", "\(wallet.body)")
            #expect(wallet.string("sourceOfFunds.token") == nil)
        }
    }

    @Test("a token names its own merchant's card only")
    func anotherMerchant() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let token = try await client.newToken()
            let other = TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            let read = try await client.send(
                TokenRequests.tokenPath(token, merchant: TestGateway.otherMerchantId),
                method: .get,
                authorization: other
            )
            #expect(read.status == .notFound)
            let paid = try await client.put(
                TestGateway.path(order: "tok-other", transaction: "1", merchant: TestGateway.otherMerchantId),
                TokenRequests.payment(token),
                authorization: other
            )
            #expect(paid.status == .badRequest)
            #expect(paid.string("error.field") == "sourceOfFunds.token")
            let deleted = try await client.send(
                TokenRequests.tokenPath(token, merchant: TestGateway.otherMerchantId),
                method: .delete,
                authorization: other
            )
            #expect(deleted.status == .notFound)
            #expect(try await client.send(TokenRequests.tokenPath(token), method: .get).status == .ok)
        }
    }

    @Test("a session's card is tokenized; a session's Apple Pay payment is refused, naming the device payment")
    func fromSession() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let cardSession = try await client.newSessionId()
            let filled = try await client.put(SessionRequests.sessionPath(cardSession), SessionRequests.cardUpdate(number: "4508750015741019"))
            #expect(filled.status == .ok, "\(filled.body)")
            let created = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TestGateway.json(["session": ["id": cardSession]])
            )
            #expect(created.status == .created, "\(created.body)")
            #expect(created.string("sourceOfFunds.provided.card.number") == "450875xxxxxx1019")
            #expect(created.string("sourceOfFunds.provided.card.brand") == "VISA")
            // Only read: the session can still pay.
            #expect(try await client.send(SessionRequests.sessionPath(cardSession), method: .get).status == .ok)

            let walletSession = try await client.newSessionId()
            let token = try TestGateway.mintToken(amountMinorUnits: 5656)
            _ = try await client.put(
                SessionRequests.sessionPath(walletSession),
                SessionRequests.tokenUpdate(token),
                authorization: SessionRequests.sessionCredential(walletSession)
            )
            let refused = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TestGateway.json(["session": ["id": walletSession]])
            )
            #expect(refused.status == .badRequest)
            #expect(refused.string("error.field") == "sourceOfFunds.provided.card.devicePayment")
            #expect(refused.string("error.validationType") == "UNSUPPORTED")
            #expect(!refused.body.contains(token.prefix(40)))

            let unknown = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TestGateway.json(["session": ["id": "SESSION0000000000000000000000000000"]])
            )
            #expect(unknown.status == .badRequest)
            #expect(unknown.string("error.field") == "session.id")
        }
    }

    @Test("ACQUIRER verification runs a VERIFY through the simulator; a card it does not approve is not stored")
    func acquirerVerification() async throws {
        let gateway = try await TestGateway(tokens: TokenRepository(id: "REPO-1", verificationStrategy: .acquirer))
        try await gateway.application.test(.live) { client in
            let currency: [String: Any] = ["transaction": ["currency": "USD"]]
            let approved = try await client.send(TokenRequests.tokensPath(), method: .post, body: TokenRequests.card(extra: currency))
            #expect(approved.status == .created, "\(approved.body)")
            #expect(approved.string("response.gatewayCode") == "EXTERNAL_VERIFICATION_SUCCESSFUL")
            #expect(approved.string("verificationStrategy") == "ACQUIRER")
            #expect(approved.string("repositoryId") == "REPO-1")

            let declined = try await client.send(TokenRequests.tokensPath(), method: .post, body: TokenRequests.card(month: "5", extra: currency))
            #expect(declined.status == .created)
            #expect(declined.string("result") == "FAILURE")
            #expect(declined.string("response.gatewayCode") == "EXTERNAL_VERIFICATION_DECLINED")
            #expect(declined.string("token") == nil)
            let expired = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TokenRequests.card(month: "4", year: "27", extra: currency)
            )
            #expect(expired.string("response.gatewayCode") == "EXTERNAL_VERIFICATION_DECLINED_EXPIRED_CARD")
            let wrongCode = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TokenRequests.card(securityCode: "102", extra: currency)
            )
            #expect(wrongCode.string("response.gatewayCode") == "EXTERNAL_VERIFICATION_DECLINED_INVALID_CSC")
            #expect(wrongCode.string("token") == nil)

            let noCurrency = try await client.send(TokenRequests.tokensPath(), method: .post, body: TokenRequests.card())
            #expect(noCurrency.status == .badRequest)
            #expect(noCurrency.string("error.field") == "transaction.currency")
            #expect(noCurrency.string("error.validationType") == "MISSING")

            // The request may choose another strategy than the repository's.
            let none = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TokenRequests.card(month: "5", extra: ["verificationStrategy": "NONE"])
            )
            #expect(none.string("response.gatewayCode") == "NO_VERIFICATION_PERFORMED", "\(none.body)")
        }
    }

    @Test("a 6.4-preserving repository keeps the card's digits and refuses another card on update")
    func preservingRepository() async throws {
        let gateway = try await TestGateway(tokens: TokenRepository(id: TestGateway.merchantId, format: .preserveSixFour))
        try await gateway.application.test(.live) { client in
            let token = try await client.newToken()
            #expect(token.hasPrefix("512345") && token.hasSuffix("0008") && token.count == 16 && !Luhn.isValid(token))
            let sameCard = try await client.put(TokenRequests.tokenPath(token), TokenRequests.card(month: "2"))
            #expect(sameCard.status == .ok, "\(sameCard.body)")
            let otherCard = try await client.put(TokenRequests.tokenPath(token), TokenRequests.card(number: "5111111111111118"))
            #expect(otherCard.status == .badRequest)
            #expect(otherCard.string("error.field") == "sourceOfFunds.provided.card.number")
            #expect(try await client.send(TokenRequests.tokenPath(token), method: .get).string("sourceOfFunds.provided.card.expiry") == "0239")
        }
    }

    @Test("bad token requests are precise errors that change nothing")
    func refusals() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let luhn = try await client.send(TokenRequests.tokensPath(), method: .post, body: TokenRequests.card(number: "5123450000000009"))
            #expect(luhn.status == .badRequest)
            #expect(luhn.string("error.field") == "sourceOfFunds.provided.card.number")
            #expect(!luhn.body.contains("5123450000000009"))
            let missing = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TestGateway.json(["sourceOfFunds": ["type": "CARD"]])
            )
            #expect(missing.string("error.field") == "sourceOfFunds.provided.card.number")
            #expect(missing.string("error.validationType") == "MISSING")
            let unexpected = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TokenRequests.card(extra: ["colour": "red"])
            )
            #expect(unexpected.string("error.explanation") == "Unexpected parameter 'colour'")
            let strategy = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TokenRequests.card(extra: ["verificationStrategy": "SOMETIMES"])
            )
            #expect(strategy.string("error.field") == "verificationStrategy")
            let wallet = try await client.send(
                TokenRequests.tokensPath(),
                method: .post,
                body: TestGateway.json([
                    "sourceOfFunds": ["provided": ["card": ["devicePayment": ["paymentToken": "{}"]]]]
                ])
            )
            #expect(wallet.string("error.field") == "sourceOfFunds.provided.card.devicePayment")
            #expect(try await client.send(TokenRequests.tokenPath("9999999999999999"), method: .get).status == .notFound)
            #expect(try await client.put(TokenRequests.tokenPath("9999999999999999"), TokenRequests.card()).status == .notFound)
            #expect(try await client.send(TokenRequests.tokenPath("not-a-token"), method: .get).status == .notFound)
            #expect(try await client.send(TokenRequests.tokensPath(), method: .get).status == .methodNotAllowed)
            let unauthenticated = try await client.send(TokenRequests.tokensPath(), method: .post, body: TokenRequests.card(), authorization: nil)
            #expect(unauthenticated.status == .unauthorized)
            // Before tokens, this said "Missing parameter 'sourceOfFunds.provided.card.number'".
            let unknown = try await client.put(TestGateway.path(order: "tok-unknown", transaction: "1"), TokenRequests.payment("9999999999999999"))
            #expect(unknown.status == .badRequest)
            #expect(unknown.string("error.field") == "sourceOfFunds.token")
            #expect(
                try await client.send("/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/tok-unknown", method: .get).status == .notFound
            )
        }
    }
}
