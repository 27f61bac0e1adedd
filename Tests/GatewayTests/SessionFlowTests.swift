import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// The Mobile SDK flow through a real socket: Create Session (merchant), Update Session (the
/// session credential, as the SDKs send it), PAY with `session.id` (merchant), on both stores.
@Suite("Sessions: the Mobile SDK flow")
struct SessionFlowTests {
    @Test("create, update with the session credential, retrieve masked, pay, order, session gone", arguments: StoreKind.allCases)
    func mobileFlow(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.live) { client in
            let created = try await client.createSession()
            #expect(created.status == .created)
            #expect(created.string("result") == "SUCCESS")
            #expect(created.string("merchant") == TestGateway.merchantId)
            #expect(created.string("session.updateStatus") == "NO_UPDATE")
            #expect(created.value("session.authenticationLimit") as? Int == 5)
            #expect(Data(base64Encoded: created.string("session.aes256Key") ?? "")?.count == 32)
            let id = try #require(created.string("session.id"))
            #expect(id.count >= 31 && id.count <= 35 && id.hasPrefix("SESSION"))
            let firstVersion = try #require(created.string("session.version"))

            let updated = try await client.put(
                SessionRequests.sessionPath(id),
                SessionRequests.tokenUpdate(token),
                authorization: SessionRequests.sessionCredential(id)
            )
            #expect(updated.status == .ok, "\(updated.body)")
            #expect(updated.string("session.updateStatus") == "SUCCESS")
            #expect(updated.string("session.version") != firstVersion)
            #expect(!updated.body.contains(token.prefix(40)))

            let retrieved = try await client.send(SessionRequests.sessionPath(id), method: .get)
            #expect(retrieved.status == .ok)
            #expect(retrieved.string("order.walletProvider") == "APPLE_PAY")
            #expect(retrieved.string("device.browser") == "Gateway-iOS-SDK/1.1.5")
            // What is stored, masked as a payment shows it; never the token or its cryptogram.
            #expect(retrieved.string("sourceOfFunds.provided.card.devicePayment.paymentToken") == "[stored, not shown]")
            #expect(retrieved.string("sourceOfFunds.provided.card.deviceSpecificNumber") == "520424xxxxxx1488")
            #expect(retrieved.string("sourceOfFunds.provided.card.deviceSpecificExpiry.month") != nil)
            #expect(retrieved.string("sourceOfFunds.provided.card.devicePayment.cryptogramFormat") == "3DSECURE")
            #expect(!retrieved.body.contains(token.prefix(40)))
            #expect(!retrieved.body.contains("onlinePaymentCryptogram"))
            #expect(updated.string("sourceOfFunds.provided.card.deviceSpecificNumber") == "520424xxxxxx1488")

            let paid = try await client.put(
                TestGateway.path(order: "session-order", transaction: "1"),
                SessionRequests.payment(id)
            )
            #expect(paid.status == .created, "\(paid.body)")
            #expect(paid.string("result") == "SUCCESS")
            #expect(paid.string("sourceOfFunds.provided.card.deviceSpecificNumber")?.hasSuffix("1488") == true)
            let order = try await client.send("/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/session-order", method: .get)
            #expect(order.string("status") == "CAPTURED")

            // Used: deleted with its card data; an identical retry still gets the stored response.
            #expect(try await client.send(SessionRequests.sessionPath(id), method: .get).status == .notFound)
            let retry = try await client.put(
                TestGateway.path(order: "session-order", transaction: "1"),
                SessionRequests.payment(id)
            )
            #expect(retry.body == paid.body)
        }
    }

    @Test("the sandbox puts a freshly minted token into a session; AUTHORIZE and VERIFY name sessions too")
    func sandboxTokenIntoSession() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let id = try await client.newSessionId()
            let minted = try await client.send(
                "/sandbox/merchant/\(TestGateway.merchantId)/applepay/token",
                method: .post,
                body: TestGateway.json(["amount": "12.34", "currency": "USD", "sessionId": id])
            )
            #expect(minted.status == .ok, "\(minted.body)")
            #expect(minted.string("session.id") == id)
            #expect(minted.string("session.updateStatus") == "SUCCESS")
            let authorized = try await client.put(
                TestGateway.path(order: "sandbox-session", transaction: "1"),
                SessionRequests.payment(id, operation: "AUTHORIZE", amount: "12.34", sessionVersion: minted.string("session.version"))
            )
            #expect(authorized.status == .created, "\(authorized.body)")
            #expect(authorized.string("order.status") == "AUTHORIZED")

            let cardSession = try await client.newSessionId()
            _ = try await client.put(SessionRequests.sessionPath(cardSession), SessionRequests.cardUpdate())
            let verified = try await client.put(
                TestGateway.path(order: "verify-session", transaction: "1"),
                SessionRequests.payment(cardSession, operation: "VERIFY")
            )
            #expect(verified.string("order.status") == "VERIFIED", "\(verified.body)")

            let unknown = try await client.send(
                "/sandbox/merchant/\(TestGateway.merchantId)/applepay/token",
                method: .post,
                body: TestGateway.json(["amount": "1.00", "currency": "USD", "sessionId": "SESSION0000000000000000000000000000"])
            )
            #expect(unknown.status == .badRequest)
            #expect(unknown.string("error.field") == "sessionId")
        }
    }

    @Test("the session credential opens its own session and nothing else")
    func sessionCredentialConfinement() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let id = try await client.newSessionId()
            let other = try await client.newSessionId()
            let credential = SessionRequests.sessionCredential(id)
            _ = try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate())
            let paid = try await client.put(TestGateway.path(order: "confined-ok", transaction: "1"), SessionRequests.payment(id, amount: "1.00"))
            #expect(paid.status == .created)
            let fresh = try await client.newSessionId()
            let freshCredential = SessionRequests.sessionCredential(fresh)

            let refusals: [(String, Exchange)] = [
                ("retrieve its own session", try await client.send(SessionRequests.sessionPath(fresh), method: .get, authorization: freshCredential)),
                (
                    "update another session",
                    try await client.put(SessionRequests.sessionPath(other), SessionRequests.cardUpdate(), authorization: freshCredential)
                ),
                ("create a session", try await client.send(SessionRequests.sessionsPath(), method: .post, authorization: freshCredential)),
                (
                    "pay",
                    try await client.put(
                        TestGateway.path(order: "confined", transaction: "1"),
                        SessionRequests.payment(fresh),
                        authorization: freshCredential
                    )
                ),
                (
                    "read an order",
                    try await client.send(
                        "/api/rest/version/100/merchant/\(TestGateway.merchantId)/order/confined-ok",
                        method: .get,
                        authorization: freshCredential
                    )
                ),
                (
                    "read a transaction",
                    try await client.send(TestGateway.path(order: "confined-ok", transaction: "1"), method: .get, authorization: freshCredential)
                ),
                (
                    "mint a sandbox token",
                    try await client.send(
                        "/sandbox/merchant/\(TestGateway.merchantId)/applepay/token",
                        method: .post,
                        body: TestGateway.json(["amount": "1.00", "currency": "USD"]),
                        authorization: freshCredential
                    )
                ),
                (
                    "update a used (deleted) session",
                    try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate(), authorization: credential)
                ),
                (
                    "update under another merchant",
                    try await client.put(
                        SessionRequests.sessionPath(fresh, merchant: TestGateway.otherMerchantId),
                        SessionRequests.cardUpdate(),
                        authorization: SessionRequests.sessionCredential(fresh, merchant: TestGateway.otherMerchantId)
                    )
                ),
            ]
            for (what, exchange) in refusals {
                #expect(exchange.status == .unauthorized, "\(what): \(exchange.status) \(exchange.body)")
                #expect(exchange.string("result") == "ERROR", "\(what)")
            }
            let own = try await client.put(SessionRequests.sessionPath(fresh), SessionRequests.cardUpdate(), authorization: freshCredential)
            #expect(own.status == .ok)

            // Another merchant's session is not found with that merchant's own password either.
            let foreign = try await client.send(
                SessionRequests.sessionPath(fresh, merchant: TestGateway.otherMerchantId),
                method: .get,
                authorization: TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            )
            #expect(foreign.status == .notFound)
            let foreignPay = try await client.put(
                TestGateway.path(order: "foreign", transaction: "1", merchant: TestGateway.otherMerchantId),
                SessionRequests.payment(fresh, amount: "1.00"),
                authorization: TestGateway.authorization(TestGateway.otherMerchantId, TestGateway.otherPassword)
            )
            #expect(foreignPay.status == .badRequest)
            #expect(foreignPay.string("error.field") == "session.id")
        }
    }

    @Test("the request wins over the session: amount, and a card that replaces the session's")
    func precedence() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.live) { client in
            let id = try await client.newSessionId()
            let update = TestGateway.json([
                "order": ["amount": "10.00", "currency": "USD"],
                "sourceOfFunds": ["type": "CARD", "provided": ["card": ["number": "4508750015741019", "expiry": ["month": "1", "year": "39"]]]],
                "billing": ["address": ["city": "Springfield", "country": "USA"]],
            ])
            #expect(try await client.put(SessionRequests.sessionPath(id), update).status == .ok)
            // 57.57 is the simulator's decline: the request's amount, not the session's 10.00.
            let declined = try await client.put(TestGateway.path(order: "precedence", transaction: "1"), SessionRequests.payment(id, amount: "57.57"))
            #expect(declined.string("response.gatewayCode") == "DECLINED", "\(declined.body)")
            #expect(declined.string("order.amount") == "57.57" || (declined.value("order.amount") as? Double) == 57.57)
            #expect(declined.string("sourceOfFunds.provided.card.number")?.hasSuffix("1019") == true)
            // A declined payment leaves the session; now the request brings its own card.
            let body = TestGateway.json([
                "apiOperation": "PAY", "session": ["id": id],
                "sourceOfFunds": ["type": "CARD", "provided": ["card": ["number": "5123450000000008", "expiry": ["month": "1", "year": "39"]]]],
            ])
            let paid = try await client.put(TestGateway.path(order: "precedence-2", transaction: "1"), body)
            #expect(paid.string("result") == "SUCCESS", "\(paid.body)")
            #expect(paid.string("sourceOfFunds.provided.card.number")?.hasSuffix("0008") == true)
        }
    }

    @Test(
        "stale versions, sessions without an update, unknown ids and expired sessions are refused",
        arguments: StoreKind.allCases
    )
    func refusals(store: StoreKind) async throws {
        let clock = TestClock()
        let gateway = try await TestGateway(store: store, clock: clock.now, sessionLifetime: 600)
        try await gateway.application.test(.live) { client in
            let empty = try await client.newSessionId()
            let noUpdate = try await client.put(TestGateway.path(order: "no-update", transaction: "1"), SessionRequests.payment(empty))
            #expect(noUpdate.status == .badRequest)
            #expect(noUpdate.string("error.field") == "session.id")
            #expect(noUpdate.string("error.explanation")?.contains("NO_UPDATE") == true)

            let id = try await client.newSessionId()
            let first = try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate())
            let oldVersion = try #require(first.string("session.version"))
            let second = try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate(securityCode: "101"))
            #expect(second.string("session.version") != oldVersion)
            let stale = try await client.put(
                TestGateway.path(order: "stale", transaction: "1"),
                SessionRequests.payment(id, amount: "1.00", sessionVersion: oldVersion)
            )
            #expect(stale.status == .badRequest)
            #expect(stale.string("error.cause") == "INVALID_REQUEST")
            #expect(stale.string("error.field") == "session.version")
            let staleUpdate = try await client.put(
                SessionRequests.sessionPath(id),
                TestGateway.json(["session": ["version": oldVersion], "customer": ["firstName": "Ann"]])
            )
            #expect(staleUpdate.string("error.field") == "session.version")

            let unknown = try await client.put(
                TestGateway.path(order: "unknown", transaction: "1"),
                SessionRequests.payment("SESSION0000000000000000000000000000", amount: "1.00")
            )
            #expect(unknown.status == .badRequest)
            #expect(unknown.string("error.field") == "session.id")
            #expect(try await client.send(SessionRequests.sessionPath("SESSION0000000000000000000000000000"), method: .get).status == .notFound)

            let badField = try await client.put(SessionRequests.sessionPath(id), TestGateway.json(["order": ["ammount": "1.00"]]))
            #expect(badField.string("error.field") == "order.ammount")
            let null = try await client.put(SessionRequests.sessionPath(id), TestGateway.json(["customer": ["email": NSNull()]]))
            #expect(null.string("error.field") == "customer.email")
            let format = try await client.put(
                SessionRequests.sessionPath(id),
                TestGateway.json(["sourceOfFunds": ["provided": ["card": ["devicePayment": ["cryptogramFormat": "OTHER"]]]]])
            )
            #expect(format.string("error.field") == "sourceOfFunds.provided.card.devicePayment.cryptogramFormat")
            let badCard = try await client.put(SessionRequests.sessionPath(id), SessionRequests.cardUpdate(number: "1234"))
            #expect(badCard.string("error.field") == "sourceOfFunds.provided.card.number")

            clock.advance(by: 601)
            let expired = try await client.put(TestGateway.path(order: "expired", transaction: "1"), SessionRequests.payment(id, amount: "1.00"))
            #expect(expired.status == .badRequest)
            #expect(expired.string("error.field") == "session.id")
            #expect(try await client.send(SessionRequests.sessionPath(id), method: .get).status == .notFound)
            let expiredUpdate = try await client.put(
                SessionRequests.sessionPath(id),
                SessionRequests.cardUpdate(),
                authorization: SessionRequests.sessionCredential(id)
            )
            #expect(expiredUpdate.status == .unauthorized)
            // Found expired, so deleted with its card data.
            #expect(try await gateway.services.sessionStore.session(id: id) == nil)
        }
    }

    @Test(
        "a token from a session gets every check: amount mismatch, and a replay through a second session",
        arguments: StoreKind.allCases
    )
    func tokenChecks(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.live) { client in
            let first = try await client.newSessionId()
            let second = try await client.newSessionId()
            for id in [first, second] {
                let updated = try await client.put(
                    SessionRequests.sessionPath(id),
                    SessionRequests.tokenUpdate(token),
                    authorization: SessionRequests.sessionCredential(id)
                )
                #expect(updated.status == .ok)
            }
            let mismatch = try await client.put(
                TestGateway.path(order: "mismatch", transaction: "1"),
                SessionRequests.payment(first, amount: "56.57")
            )
            #expect(mismatch.status == .badRequest)
            #expect(mismatch.string("error.explanation")?.contains("AMOUNT_MISMATCH") == true, "\(mismatch.body)")
            let paid = try await client.put(TestGateway.path(order: "first", transaction: "1"), SessionRequests.payment(first))
            #expect(paid.string("result") == "SUCCESS", "\(paid.body)")
            let replayed = try await client.put(TestGateway.path(order: "second", transaction: "1"), SessionRequests.payment(second))
            #expect(replayed.status == .badRequest)
            #expect(replayed.string("error.explanation")?.contains("REPLAYED") == true, "\(replayed.body)")
            // Sent directly, the same token is the same replay.
            let direct = try await client.put(TestGateway.path(order: "third", transaction: "1"), TestGateway.tokenBody(token, amount: "56.56"))
            #expect(direct.string("error.explanation")?.contains("REPLAYED") == true)
        }
    }
}
