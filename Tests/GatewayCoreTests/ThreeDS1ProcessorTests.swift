import Foundation
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The simulated 3-D Secure 1 server on a real store (SQLite and PostgreSQL), without HTTP: the
/// enrolment check by test card, the ACS answer, PROCESS_ACS_RESULT, and the payment's claim.
@Suite("3-D Secure 1 processor")
struct ThreeDS1ProcessorTests {
    typealias Kind = AuthenticationProcessorTests.Kind

    static func processor(_ kind: Kind, simulated: Bool = true) async throws -> ThreeDS1Processor {
        let store = try await AuthenticationProcessorTests.store(kind)
        let processor = AuthenticationProcessorTests.processor(store, simulated: simulated).threeDS1
        return try #require(processor)
    }

    static let usd = Currency(code: "USD")!
    static let amount = Amount(minorUnits: 5656, currency: usd)

    static func check(_ card: String) -> ThreeDS1EnrollmentRequest {
        ThreeDS1EnrollmentRequest(
            amount: amount,
            cardNumber: card,
            expiry: CardExpiry(month: 1, year: 39),
            nameOnCard: nil,
            responseUrl: "https://merchant.example/process3ds",
            pageGenerationMode: .customized
        )
    }

    static func context(_ id: String, version: Int = 57) -> ThreeDS1Context {
        ThreeDS1Context(merchantId: "M", threeDSecureId: id, version: APIVersion(String(version))!)
    }

    @Test("the enrolment check follows the 3-D Secure 2 test cards", arguments: Kind.allCases)
    func enrolment(kind: Kind) async throws {
        let processor = try await Self.processor(kind)
        let cases: [(String, ThreeDS1Status, ThreeDS1Enrolled, String?)] = [
            ("5123450000000008", .cardEnrolled, .yes, nil), ("5123456789012346", .cardEnrolled, .yes, nil),
            ("5111111111111118", .cardEnrolled, .yes, nil), ("5555555555554444", .cardNotEnrolled, .no, "01"),
            ("5105105105105100", .notAvailable, .unavailable, "00"), ("4440000009900010", .cardEnrolled, .yes, nil),
        ]
        for (index, (card, status, enrolled, eci)) in cases.enumerated() {
            let checked = try await processor.checkEnrollment(Self.check(card), Self.context("e-\(index)"))
            #expect(checked.status == status, "\(card)")
            #expect(checked.veResEnrolled == enrolled, "\(card)")
            #expect(checked.acsEci == eci, "\(card)")
            #expect((checked.paReq != nil) == (status == .cardEnrolled), "\(card)")
            #expect(checked.card.maskedNumber.contains("xxxxxx"))
            let stored = try await processor.store.threeDS1Authentication(merchantId: "M", threeDSecureId: "e-\(index)")
            #expect(stored == checked, "\(card) read back as written")
        }
    }

    @Test("ACS answer, PROCESS_ACS_RESULT with the PaRes unaltered, then one order's payment", arguments: Kind.allCases)
    func authenticated(kind: Kind) async throws {
        let processor = try await Self.processor(kind)
        let context = Self.context("a")
        let checked = try await processor.checkEnrollment(Self.check("5123456789012346"), context)
        let again = try await processor.checkEnrollment(Self.check("5123456789012346"), context)
        #expect(again.revision == 2, "checked again before the payer answered")
        let paReq = try #require(again.paReq)
        #expect(paReq != checked.paReq)
        await #expect(throws: ThreeDS1Rejection.paResNotRecognized(threeDSecureId: "a")) {
            try await processor.processACSResult(paRes: "early", context)
        }
        let answered = try await processor.answer(paReq: paReq, outcome: .authenticated)
        let paRes = try #require(answered.paRes)
        #expect(answered.paResStatus == .authenticated)
        #expect(answered.status == .cardEnrolled, "decided by PROCESS_ACS_RESULT, not by the page")
        await #expect(throws: ThreeDS1Rejection.paReqNotPending) { try await processor.answer(paReq: paReq, outcome: .authenticated) }
        await #expect(throws: ThreeDS1Rejection.idInUse(threeDSecureId: "a")) {
            try await processor.checkEnrollment(Self.check("5123456789012346"), context)
        }
        await #expect(throws: ThreeDS1Rejection.paResNotRecognized(threeDSecureId: "a")) {
            try await processor.processACSResult(paRes: paRes + "x", context)
        }
        let processed = try await processor.processACSResult(paRes: paRes, context)
        #expect(processed.status == .successful)
        #expect(processed.acsEci == "02")
        #expect(processed.authenticationToken != nil)
        #expect(try await processor.processACSResult(paRes: paRes, context) == processed, "the identical request again")

        let store = processor.store
        for payment in [
            Amount(minorUnits: 5657, currency: Self.usd), Amount(minorUnits: 5656, currency: Currency(code: "EUR")!),
        ] {
            await #expect(
                throws: PaymentRejection.threeDS1(.amountNotAuthenticated(threeDSecureId: "a", payment: payment, authenticated: Self.amount))
            ) {
                try await store.claimForPayment(merchantId: "M", threeDSecureId: "a", orderId: "o-1", amount: payment)
            }
        }
        let carried = try await store.claimForPayment(merchantId: "M", threeDSecureId: "a", orderId: "o-1", amount: Self.amount)
        #expect(carried.version == "3DS1")
        #expect(carried.status == .successful)
        #expect(carried.acsEci == "02")
        #expect(carried.threeDSTransactionId == processed.xid)
        #expect(carried.transactionStatus == .authenticated)
        let retried = try await store.claimForPayment(merchantId: "M", threeDSecureId: "a", orderId: "o-1", amount: Self.amount)
        #expect(retried == carried, "the same order may name it again")
        await #expect(throws: PaymentRejection.threeDS1(.alreadyUsed(threeDSecureId: "a"))) {
            try await store.claimForPayment(merchantId: "M", threeDSecureId: "a", orderId: "o-2", amount: Self.amount)
        }
        await #expect(throws: PaymentRejection.threeDS1(.notFound(threeDSecureId: "a"))) {
            try await store.claimForPayment(merchantId: "other", threeDSecureId: "a", orderId: "o-1", amount: Self.amount)
        }
    }

    @Test("the failure card fails whatever the payer enters; a pending or failed id pays nothing")
    func failed() async throws {
        let processor = try await Self.processor(.sqlite)
        let pending = try await processor.checkEnrollment(Self.check("5123450000000008"), Self.context("p"))
        await #expect(throws: PaymentRejection.threeDS1(.notSuccessful(threeDSecureId: "p", status: .cardEnrolled))) {
            try await processor.store.claimForPayment(merchantId: "M", threeDSecureId: "p", orderId: "o", amount: Self.amount)
        }
        _ = pending
        let checked = try await processor.checkEnrollment(Self.check("5111111111111118"), Self.context("f"))
        let answered = try await processor.answer(paReq: try #require(checked.paReq), outcome: .authenticated)
        #expect(answered.paResStatus == .notAuthenticated)
        let processed = try await processor.processACSResult(paRes: try #require(answered.paRes), Self.context("f"))
        #expect(processed.status == .failed)
        #expect(processed.status.proceed == false)
        #expect(processed.authenticationToken == nil)
        await #expect(throws: PaymentRejection.threeDS1(.notSuccessful(threeDSecureId: "f", status: .failed))) {
            try await processor.store.claimForPayment(merchantId: "M", threeDSecureId: "f", orderId: "o", amount: Self.amount)
        }
    }

    @Test("refused after version 78 and in production mode, before anything is stored")
    func availability() async throws {
        let processor = try await Self.processor(.sqlite)
        await #expect(throws: ThreeDS1Rejection.retired(version: 79)) {
            try await processor.checkEnrollment(Self.check("5123450000000008"), Self.context("r", version: 79))
        }
        #expect(try await processor.store.threeDS1Authentication(merchantId: "M", threeDSecureId: "r") == nil)
        _ = try await processor.checkEnrollment(Self.check("5123450000000008"), Self.context("r", version: 78))
        let production = try await Self.processor(.sqlite, simulated: false)
        await #expect(throws: ThreeDS1Rejection.notEnabled) {
            try await production.checkEnrollment(Self.check("5123450000000008"), Self.context("x"))
        }
    }
}
