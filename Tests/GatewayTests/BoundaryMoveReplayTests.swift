import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore
import HummingbirdTesting
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// Apple signs ephemeralPublicKey (or wrappedKey) ‖ data ‖ transactionId ‖ applicationData with
/// no length framing: moving applicationData's bytes onto the end of transactionId keeps the
/// signature valid. Before replay records were keyed on `data`, that copy was charged again.
@Suite("A used token with bytes moved between its signed header fields is a replay")
struct BoundaryMoveReplayTests {
    /// The token with `header.applicationData` appended to `header.transactionId` and removed.
    static func applicationDataMovedIntoTransactionId(_ token: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        var header = try #require(object["header"] as? [String: Any])
        let id = try #require(header["transactionId"] as? String)
        let applicationData = try #require(header["applicationData"] as? String)
        header["transactionId"] = id + applicationData
        header["applicationData"] = nil
        object["header"] = header
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func mintWithApplicationData(_ version: MintRequest.Version) throws -> String {
        try TestGateway.mintToken(amountMinorUnits: 5656, version: version) {
            $0.applicationData = Array("order-4711".utf8)
        }
    }

    @Test("moved into transactionId: the signature still verifies, so the token library alone cannot tell")
    func movedTokenStillVerifies() async throws {
        let moved = try Self.applicationDataMovedIntoTransactionId(try Self.mintWithApplicationData(.ecV1))
        let token = try PaymentToken(parsing: moved)
        #expect(token.header.applicationData == nil)
        #expect(token.header.transactionIdBytes.count == 64)
        let decryptor = ApplePayTokenDecryptor(trustRoots: TrustRoots([TestGateway.authority.root]))
        _ = try await decryptor.verifySignature(of: token)
    }

    @Test(
        "AUTHORIZE, then the moved copy on a new order: REPLAYED, and the order is not created",
        arguments: StoreKind.allCases,
        [MintRequest.Version.ecV1, .rsaV1]
    )
    func movedCopyIsReplayed(store: StoreKind, version: MintRequest.Version) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try Self.mintWithApplicationData(version)
        let moved = try Self.applicationDataMovedIntoTransactionId(token)
        try await gateway.application.test(.live) { client in
            let first = try await client.put(
                TestGateway.path(order: "moved-1", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(first.status == .created, "\(first.body)")
            #expect(first.string("response.gatewayCode") == "APPROVED")
            let again = try await client.put(
                TestGateway.path(order: "moved-2", transaction: "1"),
                TestGateway.tokenBody(moved, amount: "56.56")
            )
            #expect(ReplaySpellingTests.isReplayed(again), "\(again.status) \(again.body)")
            #expect(try await gateway.services.store.order(merchantId: TestGateway.merchantId, orderId: "moved-2") == nil)
        }
    }

    @Test("the moved copy first, then the original: the second is REPLAYED either way round", arguments: StoreKind.allCases)
    func originalAfterMovedCopyIsReplayed(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try Self.mintWithApplicationData(.ecV1)
        let moved = try Self.applicationDataMovedIntoTransactionId(token)
        try await gateway.application.test(.live) { client in
            let first = try await client.put(
                TestGateway.path(order: "moved-first-1", transaction: "1"),
                TestGateway.tokenBody(moved, amount: "56.56")
            )
            #expect(first.status == .created, "\(first.body)")
            let again = try await client.put(
                TestGateway.path(order: "moved-first-2", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(ReplaySpellingTests.isReplayed(again), "\(again.status) \(again.body)")
        }
    }

    @Test("through a session: the moved copy put into a session by the payer's device pays nothing", arguments: StoreKind.allCases)
    func sessionRefusesMovedCopy(store: StoreKind) async throws {
        let gateway = try await TestGateway(store: store)
        let token = try Self.mintWithApplicationData(.ecV1)
        let moved = try Self.applicationDataMovedIntoTransactionId(token)
        try await gateway.application.test(.live) { client in
            let first = try await client.put(
                TestGateway.path(order: "session-moved-1", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(first.status == .created, "\(first.body)")
            let sessionId = try await client.newSessionId()
            let update = try await client.put(
                SessionRequests.sessionPath(sessionId),
                SessionRequests.tokenUpdate(moved),
                authorization: SessionRequests.sessionCredential(sessionId)
            )
            #expect(update.status == .ok, "\(update.body)")
            let pay = try await client.put(
                TestGateway.path(order: "session-moved-2", transaction: "1"),
                SessionRequests.payment(sessionId, amount: "56.56")
            )
            #expect(ReplaySpellingTests.isReplayed(pay), "\(pay.status) \(pay.body)")
        }
    }

    @Test("Radial: once authorized, the moved copy gets no card data from Decrypt and no second authorization")
    func radialRefusesMovedCopy() async throws {
        let gateway = try await TestGateway(radialDecrypt: true)
        let token = try Self.mintWithApplicationData(.ecV1)
        let movedParts = try Radial.WalletParts(token: try Self.applicationDataMovedIntoTransactionId(token))
        try await gateway.application.test(.live) { client in
            let first = try await client.put(
                TestGateway.path(order: "radial-moved-1", transaction: "1"),
                TestGateway.tokenBody(token, amount: "56.56")
            )
            #expect(first.status == .created, "\(first.body)")
            let decrypt = try await client.radial(Radial.decryptPath(), Radial.decryptRequest(movedParts))
            #expect(decrypt.status == .badRequest, "\(decrypt.body)")
            #expect(decrypt.text("PaymentAccountUniqueId") == nil)
            #expect(decrypt.text("OnlinePaymentCryptogram") == nil)
            let auth = try await client.radial(Radial.authPath(), Radial.seedWalletRequest(movedParts, orderId: "radial-moved-2"))
            #expect(auth.status == .badRequest, "\(auth.body)")
        }
    }
}
