import Foundation
import StoreTestSupport
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// What every store must do with 3-D Secure authentications, on SQLite and PostgreSQL alike.
@Suite("Authentication store")
struct AuthenticationStoreTests {
    static func authentication(order: String, transaction: String = "auth", revision: Int64 = 1) -> PayerAuthentication {
        PayerAuthentication(
            merchantId: "M",
            orderId: order,
            transactionId: transaction,
            version: APIVersion("100")!,
            status: .pending,
            scenario: .challenge,
            amount: Amount(minorUnits: 5656, currency: Currency(code: "USD")!),
            card: CardDetails(
                maskedNumber: "512345xxxxxx2346",
                brand: CardBrand(name: "MASTERCARD"),
                expiry: CardExpiry(month: 1, year: 39),
                nameOnCard: "A Payer"
            ),
            channel: "PAYER_BROWSER",
            purpose: "PAYMENT_TRANSACTION",
            acceptVersions: "3DS2",
            redirectResponseUrl: "https://merchant.example/return",
            challengeId: "challenge-\(order)-\(transaction)",
            threeDS: ThreeDSResult(
                transactionId: "6b2c5bc3-5d61-4bb5-9a8c-5a0c0d2f3e11",
                dsTransactionId: "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
                protocolVersion: "2.2.0",
                transactionStatus: .challengeRequired,
                acsEci: "02",
                authenticationToken: "AAECAwQFBgcICQoLDA0ODxAREhM="
            ),
            revision: revision,
            createdAt: Date(milliseconds: 1_700_000_000_000),
            updatedAt: Date(milliseconds: 1_700_000_000_500)
        )
    }

    static func open(_ kind: StoreKind) async throws -> (StoreFixture, any AuthenticationStore) {
        let fixture = try await StoreFixture(kind)
        return (fixture, try #require(try await fixture.open() as? any AuthenticationStore))
    }

    @Test("an authentication reads back as written, by its ids and by its challenge, also after reopening", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.open(kind)
        let written = Self.authentication(order: "o-1")
        #expect(try await store.insertAuthentication(written))
        #expect(try await store.insertAuthentication(written) == false, "one authentication per transaction id")
        #expect(try await store.authentication(merchantId: "M", orderId: "o-1", transactionId: "auth") == written)
        #expect(try await store.authentication(challengeId: "challenge-o-1-auth") == written)
        #expect(try await store.authentication(merchantId: "N", orderId: "o-1", transactionId: "auth") == nil)
        let reopened = try #require(try await fixture.open() as? any AuthenticationStore)
        #expect(try await reopened.authentications(merchantId: "M", orderId: "o-1") == [written])
    }

    @Test("an update lands only on the revision it was decided on", arguments: StoreKind.allCases)
    func revisions(kind: StoreKind) async throws {
        let (_, store) = try await Self.open(kind)
        let first = Self.authentication(order: "o-2")
        #expect(try await store.insertAuthentication(first))
        var answered = first
        answered.status = .successful
        answered.challengeId = nil
        answered.threeDS?.transactionStatus = .authenticated
        answered.revision = 2
        #expect(try await store.replaceAuthentication(answered, expectedRevision: 1))
        var late = first
        late.status = .failed
        late.revision = 2
        #expect(try await store.replaceAuthentication(late, expectedRevision: 1) == false)
        #expect(try await store.authentication(merchantId: "M", orderId: "o-2", transactionId: "auth") == answered)
        #expect(try await store.authentication(challengeId: "challenge-o-2-auth") == nil, "an answered challenge is gone")
    }

    @Test("an order's authentications are listed oldest first, and a payment's authentication is kept in its receipt", arguments: StoreKind.allCases)
    func listing(kind: StoreKind) async throws {
        let (fixture, store) = try await Self.open(kind)
        var later = Self.authentication(order: "o-3", transaction: "b")
        later.createdAt = Date(milliseconds: 1_700_000_001_000)
        #expect(try await store.insertAuthentication(later))
        #expect(try await store.insertAuthentication(Self.authentication(order: "o-3", transaction: "a")))
        #expect(try await store.authentications(merchantId: "M", orderId: "o-3").map(\.transactionId) == ["a", "b"])

        let transactions = try await fixture.open()
        #expect(try await transactions.record(SampleRecords.record(order: "o-3", transaction: "pay")) == .recorded)
        let stored = try await transactions.transaction(merchantId: "M", orderId: "o-3", transactionId: "pay")
        #expect(stored?.receipt.authentication == SampleRecords.receipt(order: "o-3", transaction: "pay").authentication)
        #expect(stored?.receipt.authentication?.acsEci == "02")
    }
}
