import Foundation

/// The session rules, on the stored state alone: who may see a session and until when, what a
/// payment needs of it, and how updates, payments and their outcomes move it on. The store keeps
/// sessions and decides nothing; the front ends seal the content and render the rejections.
extension StoredSession {
    /// A new session: `SUCCESS` when it was created with content, `NO_UPDATE` when empty.
    package static func new(
        id: String,
        merchantId: String,
        version: String,
        hasContent: Bool,
        authenticationLimit: Int,
        now: Date,
        lifetime: TimeInterval
    ) -> StoredSession {
        StoredSession(
            id: id,
            merchantId: merchantId,
            version: version,
            updateStatus: hasContent ? .success : .noUpdate,
            authenticationLimit: authenticationLimit,
            sealedContent: [],
            createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime)
        )
    }

    /// How the session stands for `merchantId` at `now`.
    package enum Access: Hashable, Sendable {
        case live
        /// Past its lifetime: answered as not found, and deleted with its content when seen.
        case expired
        /// Another merchant's: answered as not found, and left alone.
        case anotherMerchant
    }

    package func access(by merchantId: String, at now: Date) -> Access {
        guard self.merchantId == merchantId else { return .anotherMerchant }
        return expiresAt > now ? .live : .expired
    }

    /// A payment may use a live session that holds a successful update, no other payment has
    /// claimed, and is at `version` when the request names one.
    package func checkPayable(version: String?) throws(SessionRejection) {
        switch updateStatus {
        case .claimedForPayment: throw .inUse
        case .noUpdate: throw .notUpdated(updateStatus)
        case .success: break
        }
        try checkVersion(version)
    }

    /// A session a payment holds takes no update until the payment is over: an update would
    /// free the claim, and a second payment could use the session while the first is in flight.
    package func checkUpdatable() throws(SessionRejection) {
        if isHeldByPayment { throw .inUse }
    }

    /// Whether a payment has claimed the session and is being processed.
    package var isHeldByPayment: Bool { updateStatus == .claimedForPayment }

    /// An update that names `session.version` applies only to that version.
    package func checkVersion(_ version: String?) throws(SessionRejection) {
        if let version, version != self.version { throw .staleVersion(version) }
    }

    /// What `session.updateStatus` shows: a claim is the gateway's own bookkeeping, so a claimed
    /// session shows the `SUCCESS` it had.
    package var shownUpdateStatus: SessionUpdateStatus {
        updateStatus == .claimedForPayment ? .success : updateStatus
    }

    /// After an update: its new content, a new version, `SUCCESS`. Written only over the
    /// version it was read at; losing that race is ``SessionRejection/concurrentUpdate``.
    package func updated(sealedContent: [UInt8], version: String) -> StoredSession {
        var updated = self
        updated.sealedContent = sealedContent
        updated.version = version
        updated.updateStatus = .success
        return updated
    }

    /// Taken by one payment before it is processed. Written only over the version it was read
    /// at, so of several payments racing for one session exactly one goes on; losing that race
    /// is ``SessionRejection/inUse``.
    package func claimedForPayment(version: String) -> StoredSession {
        var claimed = self
        claimed.version = version
        claimed.updateStatus = .claimedForPayment
        return claimed
    }

    /// Free to pay again after a payment that did not succeed.
    package func released(version: String) -> StoredSession {
        var released = self
        released.version = version
        released.updateStatus = .success
        return released
    }

    /// What a payment's outcome does to the session it claimed: a success uses it up (deleted
    /// with its card data); anything else, a replayed answer included (that claim paid nothing),
    /// frees it for the payer to try again, perhaps with another card.
    package static func afterPayment(recordedSuccess: Bool) -> AfterPayment {
        recordedSuccess ? .delete : .release
    }

    package enum AfterPayment: Hashable, Sendable {
        case delete
        case release
    }
}
