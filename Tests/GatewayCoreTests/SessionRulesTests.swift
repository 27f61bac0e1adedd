import Foundation
import Testing

@testable import GatewayCore

/// The session rules on stored state alone: no store, no HTTP, no wire format.
@Suite("Session rules")
struct SessionRulesTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)

    static func session(hasContent: Bool = true) -> StoredSession {
        StoredSession.new(
            id: "SESSION0001",
            merchantId: "M1",
            version: "v1",
            hasContent: hasContent,
            authenticationLimit: 25,
            now: created,
            lifetime: 3600
        )
    }

    @Test("a session is live for its own merchant within its lifetime; expired and another merchant's are told apart only here")
    func access() {
        let session = Self.session()
        #expect(session.access(by: "M1", at: Self.created) == .live)
        #expect(session.access(by: "M1", at: Self.created.addingTimeInterval(3599)) == .live)
        #expect(session.access(by: "M1", at: Self.created.addingTimeInterval(3600)) == .expired)
        // Another merchant's wins over expiry: it is never deleted on their behalf.
        #expect(session.access(by: "M2", at: Self.created) == .anotherMerchant)
        #expect(session.access(by: "M2", at: Self.created.addingTimeInterval(7200)) == .anotherMerchant)
    }

    @Test("a payment needs a successful update, no claim, and the version it names")
    func payable() throws {
        #expect(throws: SessionRejection.notUpdated(.noUpdate)) { try Self.session(hasContent: false).checkPayable(version: nil) }
        let session = Self.session()
        try session.checkPayable(version: nil)
        try session.checkPayable(version: "v1")
        #expect(throws: SessionRejection.staleVersion("v0")) { try session.checkPayable(version: "v0") }
        let claimed = session.claimedForPayment(version: "v2")
        #expect(throws: SessionRejection.inUse) { try claimed.checkPayable(version: nil) }
        // A claim shows as the SUCCESS it had.
        #expect(claimed.updateStatus == .claimedForPayment)
        #expect(claimed.shownUpdateStatus == .success)
        #expect(Self.session(hasContent: false).shownUpdateStatus == .noUpdate)
    }

    @Test("update, claim and release each give the version they are given and the status the rules say")
    func transitions() throws {
        let empty = Self.session(hasContent: false)
        let updated = empty.updated(sealedContent: [1, 2, 3], version: "v2")
        #expect(updated.updateStatus == .success && updated.version == "v2" && updated.sealedContent == [1, 2, 3])
        try updated.checkPayable(version: "v2")
        let claimed = updated.claimedForPayment(version: "v3")
        #expect(claimed.version == "v3" && claimed.sealedContent == [1, 2, 3])
        let released = claimed.released(version: "v4")
        #expect(released.updateStatus == .success && released.version == "v4")
        try released.checkPayable(version: "v4")
        // Nothing but the version and status moves: owner, lifetime and limit stay.
        for moved in [updated, claimed, released] {
            #expect(moved.id == empty.id && moved.merchantId == empty.merchantId)
            #expect(moved.expiresAt == empty.expiresAt && moved.authenticationLimit == empty.authenticationLimit)
        }
    }

    @Test("a recorded success uses the session up; anything else frees it")
    func afterPayment() {
        #expect(StoredSession.afterPayment(recordedSuccess: true) == .delete)
        #expect(StoredSession.afterPayment(recordedSuccess: false) == .release)
    }
}
