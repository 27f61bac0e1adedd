import Foundation
import NIOPosix
import PostgresTestServer
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The simulated 3-D Secure server on a real store, without HTTP: its test cards, its states, and
/// two "replicas" (processors with their own in-process locks) racing on one store.
@Suite("3-D Secure processor")
struct AuthenticationProcessorTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static func store(_ kind: Kind) async throws -> any AuthenticationStore & TransactionStore {
        switch kind {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("threeds-\(UUID().uuidString).sqlite").path
            return try SQLiteTransactionStore(path: path, eventLoops: MultiThreadedEventLoopGroup.singleton)
        case .postgres:
            guard case .postgres(let location) = try StoreLocation(url: try await PostgresTestServer.shared().createDatabase()) else {
                throw PostgresTestServer.Failure(description: "not a PostgreSQL URL")
            }
            let store = PostgresTransactionStore(
                location: location,
                eventLoops: MultiThreadedEventLoopGroup.singleton,
                timeout: PostgresTestServer.generousStoreTimeout
            )
            try await store.prepare()
            return store
        }
    }

    static func processor(_ store: any AuthenticationStore, simulated: Bool = true) -> AuthenticationProcessor {
        AuthenticationProcessor(store: store, locks: OrderLocks(), clock: { Date(milliseconds: 1_700_000_000_000) }, simulated: simulated)
    }

    static func context(order: String, transaction: String = "auth") -> AuthenticationContext {
        AuthenticationContext(merchantId: "M", orderId: order, transactionId: transaction, version: .latest)
    }

    static let usd = Currency(code: "USD")!

    static func initiate(_ card: String) -> InitiateAuthenticationRequest {
        InitiateAuthenticationRequest(
            amount: Amount(minorUnits: 0, currency: usd),
            cardNumber: card,
            expiry: CardExpiry(month: 1, year: 39),
            nameOnCard: nil,
            channel: "PAYER_BROWSER",
            purpose: "PAYMENT_TRANSACTION",
            acceptVersions: "3DS2"
        )
    }

    static let authenticate = AuthenticatePayerRequest(
        amount: Amount(minorUnits: 5656, currency: usd),
        redirectResponseUrl: "https://merchant.example/return"
    )

    @Test("each documented card has its scenario; any other is frictionless; every one passes the Luhn check")
    func testCards() {
        #expect(ThreeDSScenario(cardNumber: "5123450000000008") == .frictionlessSuccess)
        #expect(ThreeDSScenario(cardNumber: "5123456789012346") == .challenge)
        #expect(ThreeDSScenario(cardNumber: "5111111111111118") == .frictionlessFailure)
        #expect(ThreeDSScenario(cardNumber: "5555555555554444") == .notEnrolled)
        #expect(ThreeDSScenario(cardNumber: "5105105105105100") == .error)
        #expect(ThreeDSScenario(cardNumber: "4111111111111111") == .frictionlessSuccess)
        #expect(Set(ThreeDSScenario.testCards.map(\.scenario)) == Set(ThreeDSScenario.allCases))
        for (number, _) in ThreeDSScenario.testCards {
            let digits = number.reversed().map { Int(String($0))! }
            let sum = digits.enumerated().reduce(0) { total, item in
                let doubled = item.offset % 2 == 1 ? item.element * 2 : item.element
                return total + (doubled > 9 ? doubled - 9 : doubled)
            }
            #expect(sum % 10 == 0, "\(number)")
        }
    }

    @Test("a challenge: available, pending with a single-use challenge, then final; each step refused out of turn", arguments: Kind.allCases)
    func challenge(kind: Kind) async throws {
        let store = try await Self.store(kind)
        let processor = Self.processor(store)
        let context = Self.context(order: "c")
        await #expect(throws: AuthenticationRejection.notInitiated(transactionId: "auth")) {
            try await processor.authenticatePayer(Self.authenticate, context)
        }
        let initiated = try await processor.initiate(Self.initiate("5123456789012346"), context)
        #expect(initiated.status == .available)
        #expect(initiated.card.maskedNumber == "512345xxxxxx2346")
        let again = try await processor.initiate(Self.initiate("5123456789012346"), context)
        #expect(again.revision == 2, "initiated again before AUTHENTICATE_PAYER")

        let pending = try await processor.authenticatePayer(Self.authenticate, context)
        #expect(pending.status == .pending)
        #expect(pending.threeDS?.transactionStatus == .challengeRequired)
        let challengeId = try #require(pending.challengeId)
        await #expect(throws: AuthenticationRejection.alreadyAuthenticated(transactionId: "auth", status: .pending)) {
            try await processor.initiate(Self.initiate("5123456789012346"), context)
        }
        await #expect(throws: PaymentRejection.authentication(.notSuccessful(transactionId: "auth", status: .pending))) {
            try await store.authenticationForPayment(merchantId: "M", orderId: "c", transactionId: "auth", amount: Self.authenticate.amount)
        }

        let answered = try await processor.completeChallenge(challengeId: challengeId, outcome: .authenticated)
        #expect(answered.status == .successful)
        #expect(answered.challengeId == nil)
        #expect(answered.threeDS?.acsEci == "02")
        #expect(answered.threeDS?.transactionId == pending.threeDS?.transactionId, "the 3DS server transaction id stays")
        await #expect(throws: AuthenticationRejection.challengeNotPending) {
            try await processor.completeChallenge(challengeId: challengeId, outcome: .notAuthenticated)
        }
        let forPayment = try await store.authenticationForPayment(
            merchantId: "M",
            orderId: "c",
            transactionId: "auth",
            amount: Self.authenticate.amount
        )
        #expect(forPayment.transactionStatus == .authenticated)
        // Bound to what the payer approved: less is a partial payment, more or another currency is refused.
        let authenticated = Self.authenticate.amount
        let lower = Amount(minorUnits: authenticated.minorUnits - 1, currency: authenticated.currency)
        #expect(try await store.authenticationForPayment(merchantId: "M", orderId: "c", transactionId: "auth", amount: lower).transactionId == "auth")
        for payment in [
            Amount(minorUnits: authenticated.minorUnits + 1, currency: authenticated.currency),
            Amount(minorUnits: 999_900, currency: authenticated.currency),
            Amount(minorUnits: authenticated.minorUnits, currency: Currency(code: "EUR")!),
        ] {
            await #expect(
                throws: PaymentRejection.authentication(
                    .amountNotAuthenticated(transactionId: "auth", payment: payment, authenticated: authenticated)
                )
            ) {
                try await store.authenticationForPayment(merchantId: "M", orderId: "c", transactionId: "auth", amount: payment)
            }
        }
        await #expect(throws: PaymentRejection.authentication(.notFound(transactionId: "auth"))) {
            try await store.authenticationForPayment(merchantId: "M", orderId: "other", transactionId: "auth", amount: Self.authenticate.amount)
        }
    }

    @Test("two replicas answering one challenge at once: exactly one answer is kept", arguments: Kind.allCases)
    func racingAnswers(kind: Kind) async throws {
        let store = try await Self.store(kind)
        let replicas = [Self.processor(store), Self.processor(store)]
        for round in 0..<5 {
            let context = Self.context(order: "race-\(round)")
            _ = try await replicas[0].initiate(Self.initiate("5123456789012346"), context)
            let challengeId = try #require(try await replicas[1].authenticatePayer(Self.authenticate, context).challengeId)
            let results = await withTaskGroup(of: AuthenticationStatus?.self) { group in
                for (index, outcome) in [ChallengeOutcome.authenticated, .notAuthenticated].enumerated() {
                    group.addTask { try? await replicas[index].completeChallenge(challengeId: challengeId, outcome: outcome).status }
                }
                return await group.reduce(into: [AuthenticationStatus?]()) { $0.append($1) }
            }
            #expect(results.compactMap { $0 }.count == 1, "round \(round): \(results)")
            let stored = try await store.authentication(merchantId: "M", orderId: "race-\(round)", transactionId: "auth")
            #expect(stored?.status == results.compactMap { $0 }.first)
        }
    }

    @Test("frictionless failure, not enrolled and error; production mode authenticates no one")
    func otherCards() async throws {
        let store = try await Self.store(.sqlite)
        let processor = Self.processor(store)
        for (card, initiated, authenticated) in [
            ("5111111111111118", AuthenticationStatus.available, AuthenticationStatus.failed),
            ("5555555555554444", .notSupported, .notSupported),
            ("5105105105105100", .available, .unavailable),
        ] {
            let context = Self.context(order: card)
            #expect(try await processor.initiate(Self.initiate(card), context).status == initiated)
            let result = try await processor.authenticatePayer(Self.authenticate, context)
            #expect(result.status == authenticated, "\(card)")
            #expect(result.challengeId == nil)
        }
        #expect(
            try await store.authenticationForPayment(
                merchantId: "M",
                orderId: "5555555555554444",
                transactionId: "auth",
                amount: Self.authenticate.amount
            ).version == "NONE"
        )
        let production = Self.processor(store, simulated: false)
        await #expect(throws: AuthenticationRejection.notEnabled) {
            try await production.initiate(Self.initiate("5123450000000008"), Self.context(order: "p"))
        }
    }
}
