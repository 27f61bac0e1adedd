import ApplePaySandbox
import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Synchronization
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

@Suite("AUTHORIZE and PAY with an Apple Pay token")
struct ApplePayTokenPaymentTests {
    let gateway: TestGateway

    init() async throws {
        gateway = try await TestGateway()
    }

    @Test("an EC_v1 token is decrypted, authorized and mapped onto the response", arguments: [MintRequest.Version.ecV1, .rsaV1])
    func authorize(version: MintRequest.Version) async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 5656, version: version) { request in
            request.cardholderName = "Jane Appleseed"
            request.details = .threeDSecure(onlinePaymentCryptogram: "QUJDREVGR0hJSktMTU5PUFFSU1Q=", eciIndicator: "5")
        }
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "order-1", transaction: "txn-1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(exchange.status == .created)
            #expect(exchange.string("result") == "SUCCESS")
            #expect(exchange.string("response.gatewayCode") == "APPROVED")
            #expect(exchange.string("response.acquirerCode") == "00")
            #expect(exchange.string("order.status") == "AUTHORIZED")
            #expect(exchange.string("order.walletProvider") == "APPLE_PAY")
            #expect(exchange.value("order.totalAuthorizedAmount") as? Double == 56.56)
            #expect(exchange.string("transaction.type") == "AUTHORIZATION")
            #expect(exchange.string("transaction.id") == "txn-1")
            #expect(exchange.string("order.id") == "order-1")
            #expect(exchange.string("sourceOfFunds.provided.card.encryption") == "DEVICE")
            #expect(exchange.string("sourceOfFunds.provided.card.deviceSpecificNumber") == "520424xxxxxx1488")
            #expect(exchange.string("sourceOfFunds.provided.card.deviceSpecificExpiry.month") == "12")
            #expect(exchange.string("sourceOfFunds.provided.card.deviceSpecificExpiry.year") == "30")
            #expect(exchange.string("sourceOfFunds.provided.card.devicePayment.cryptogramFormat") == "3DSECURE")
            #expect(exchange.string("sourceOfFunds.provided.card.brand") == "MASTERCARD")
            #expect(exchange.string("sourceOfFunds.provided.card.nameOnCard") == "Jane Appleseed")
            #expect(exchange.string("transaction.authorizationCode")?.count == 6)
            #expect(!exchange.body.contains("5204245250001488"))
            #expect(!exchange.body.contains("QUJDREVGR0hJSktMTU5PUFFSU1Q="))
        }
    }

    @Test("PAY captures the order")
    func pay() async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 1999, currencyCode: "978")
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "order-pay", transaction: "1"),
                TestGateway.tokenBody(token, operation: "PAY", amount: "19.99", currency: "EUR")
            )
            #expect(exchange.status == .created)
            #expect(exchange.string("order.status") == "CAPTURED")
            #expect(exchange.value("order.totalCapturedAmount") as? Double == 19.99)
            #expect(exchange.string("transaction.type") == "PAYMENT")
        }
    }

    @Test("the eciIndicator is kept with the stored transaction")
    func eciIsStored() async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 100) { request in
            request.details = .threeDSecure(onlinePaymentCryptogram: "AAAA", eciIndicator: "07")
        }
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "order-eci", transaction: "1"),
                TestGateway.tokenBody(token, amount: "1.00")
            )
            #expect(exchange.status == .created)
        }
        let connection = try SQLiteConnection(path: try gateway.services.configuration.sqlitePath)
        let rows = try connection.query("SELECT eci_indicator FROM transactions WHERE order_id = 'order-eci'")
        #expect(rows.first?.first?.text == "07")
    }

    @Test(
        "a replayed token is rejected; an identical retry gets the stored response byte for byte",
        arguments: StoreKind.allCases
    )
    func replayAndRetry(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        try await gateway.application.test(.router) { client in
            let first = try await client.put(TestGateway.path(order: "o-replay", transaction: "1"), body)
            #expect(first.status == .created)
            let retry = try await client.put(TestGateway.path(order: "o-replay", transaction: "1"), body)
            #expect(retry.status == .created)
            #expect(retry.body == first.body)

            let replay = try await client.put(TestGateway.path(order: "o-replay-2", transaction: "1"), body)
            #expect(replay.status == .badRequest)
            #expect(replay.string("error.field") == PaymentProcessor.tokenField)
            #expect(replay.string("error.explanation")?.contains("REPLAYED") == true)
        }
    }

    @Test("a retry gets the stored response after its token has left the signing window", arguments: StoreKind.allCases)
    func retryAfterTokenExpired(store: StoreKind) async throws {
        let now = Mutex(Date())
        let gateway = try await TestGateway(store: store, clock: { now.withLock { $0 } })
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        try await gateway.application.test(.router) { client in
            let first = try await client.put(TestGateway.path(order: "o-late-retry", transaction: "1"), body)
            #expect(first.status == .created)
            now.withLock { $0 += 3600 }
            let retry = try await client.put(TestGateway.path(order: "o-late-retry", transaction: "1"), body)
            #expect(retry.status == .created)
            #expect(retry.body == first.body)
            // Anywhere else the token is what it now is: too old.
            let elsewhere = try await client.put(TestGateway.path(order: "o-late-other", transaction: "1"), body)
            #expect(elsewhere.string("error.explanation")?.contains("SIGNING_TIME_OUTSIDE_WINDOW") == true, "\(elsewhere.body)")
        }
    }

    @Test("a used token is REPLAYED on an order that already holds a declined transaction", arguments: StoreKind.allCases)
    func replayOnExistingOrder(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        try await gateway.application.test(.router) { client in
            #expect(try await client.put(TestGateway.path(order: "o-used", transaction: "1"), body).status == .created)
            let declined = try await client.put(
                TestGateway.path(order: "o-declined", transaction: "1"),
                TestGateway.cardBody(operation: "AUTHORIZE", amount: "57.57")
            )
            #expect(declined.string("response.gatewayCode") == "DECLINED")
            let replay = try await client.put(TestGateway.path(order: "o-declined", transaction: "2"), body)
            #expect(replay.string("error.explanation")?.contains("REPLAYED") == true, "\(replay.body)")
            let order = try #require(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "o-declined"))
            #expect(order.version == 1)
            #expect(order.state.status == .failed)
        }
    }

    @Test("the replay record survives a restart of the gateway", arguments: StoreKind.allCases)
    func replayIsDurable(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        let body = TestGateway.tokenBody(token, amount: "56.56")
        let firstBody = try await gateway.application.test(.router) { client in
            try await client.put(TestGateway.path(order: "o-durable", transaction: "1"), body).body
        }
        let restarted = try await TestGateway(directory: gateway.directory, storeURL: gateway.services.configuration.storeURL)
        try await restarted.application.test(.router) { client in
            let replay = try await client.put(TestGateway.path(order: "o-durable-2", transaction: "1"), body)
            #expect(replay.string("error.explanation")?.contains("REPLAYED") == true)
            let retry = try await client.put(TestGateway.path(order: "o-durable", transaction: "1"), body)
            #expect(retry.body == firstBody)
        }
    }

    @Test(
        "amount and currency must match the token's",
        arguments: [("56.57", "USD", "AMOUNT_MISMATCH"), ("56.56", "EUR", "CURRENCY_MISMATCH"), ("5656", "JPY", "CURRENCY_MISMATCH")]
    )
    func mismatches(amount: String, currency: String, check: String) async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "o-mismatch", transaction: "1"),
                TestGateway.tokenBody(token, amount: amount, currency: currency)
            )
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("error.cause") == "INVALID_REQUEST")
            #expect(exchange.string("error.field") == PaymentProcessor.tokenField)
            #expect(exchange.string("error.explanation")?.contains(check) == true)
            // Nothing was stored: the token is still usable with the right amount.
            let retry = try await client.put(
                TestGateway.path(order: "o-mismatch", transaction: "2"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(retry.status == .created)
        }
    }

    @Test("JPY amounts have no minor units; the token's transactionAmount is whole yen")
    func zeroExponentCurrency() async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 5757, currencyCode: "392")
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "o-jpy", transaction: "1"),
                TestGateway.tokenBody(token, amount: "5757", currency: "JPY")
            )
            #expect(exchange.status == .created)
            #expect(exchange.string("response.gatewayCode") == "DECLINED")
        }
    }

    @Test("applicationData is checked when the request carries it")
    func applicationData() async throws {
        let data = Array("order=o-appdata".utf8)
        try await gateway.application.test(.router) { client in
            let matching = try TestGateway.mintToken(amountMinorUnits: 100) { $0.applicationData = data }
            let ok = try await client.put(
                TestGateway.path(order: "o-appdata", transaction: "1"),
                TestGateway.tokenBody(
                    matching,
                    amount: "1.00",
                    extraDevicePayment: ["applicationData": Data(data).base64EncodedString()]
                )
            )
            #expect(ok.status == .created)

            let other = try TestGateway.mintToken(amountMinorUnits: 100) { $0.applicationData = Array("order=other".utf8) }
            let mismatch = try await client.put(
                TestGateway.path(order: "o-appdata-2", transaction: "1"),
                TestGateway.tokenBody(
                    other,
                    amount: "1.00",
                    extraDevicePayment: ["applicationData": Data(data).base64EncodedString()]
                )
            )
            #expect(mismatch.status == .badRequest)
            #expect(mismatch.string("error.explanation")?.contains("APPLICATION_DATA_MISMATCH") == true)
        }
    }

    @Test("a token signed outside the window is rejected naming the check")
    func staleToken() async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 100) { $0.signingTime = Date().addingTimeInterval(-600) }
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "o-stale", transaction: "1"),
                TestGateway.tokenBody(token, amount: "1.00")
            )
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("error.explanation")?.contains("SIGNING_TIME_OUTSIDE_WINDOW") == true)
        }
    }

    @Test("the token may come as base64 of its JSON, and must come with walletProvider APPLE_PAY")
    func tokenForms() async throws {
        let token = try TestGateway.mintToken(amountMinorUnits: 100)
        try await gateway.application.test(.router) { client in
            let base64 = try await client.put(
                TestGateway.path(order: "o-b64", transaction: "1"),
                TestGateway.tokenBody(Data(token.utf8).base64EncodedString(), amount: "1.00")
            )
            #expect(base64.status == .created)

            let body = TestGateway.tokenBody(
                try TestGateway.mintToken(amountMinorUnits: 100),
                amount: "1.00",
                walletProvider: nil
            )
            let noWallet = try await client.put(TestGateway.path(order: "o-nowallet", transaction: "1"), body)
            #expect(noWallet.status == .badRequest)
            #expect(noWallet.string("error.field") == "order.walletProvider")
        }
    }

    @Test("a garbage token is a field error naming the problem")
    func garbageToken() async throws {
        try await gateway.application.test(.router) { client in
            let exchange = try await client.put(
                TestGateway.path(order: "o-garbage", transaction: "1"),
                TestGateway.tokenBody("{\"version\":\"EC_v9\"}", amount: "1.00")
            )
            #expect(exchange.status == .badRequest)
            #expect(exchange.string("error.field") == PaymentProcessor.tokenField)
            #expect(exchange.string("error.explanation")?.contains("UNSUPPORTED_VERSION") == true)
        }
    }
}
