import Foundation

/// The token rules on the stored state alone: who may use a token, what an update may change,
/// and when a token may pay. The store keeps tokens and decides nothing; the front ends seal the
/// card and render the rejections.
extension StoredToken {
    /// A new token: `VALID`, since it is stored only after its verification passed.
    package static func new(token: String, merchantId: String, sealedCard: [UInt8], now: Date) -> StoredToken {
        StoredToken(token: token, merchantId: merchantId, status: .valid, sealedCard: sealedCard, createdAt: now, updatedAt: now)
    }

    /// The token as `merchantId` may see it: another merchant's is not found.
    package func checkOwned(by merchantId: String) throws(CardTokenRejection) {
        guard self.merchantId == merchantId else { throw .notFound }
    }

    /// An update stores a new card (it passed verification, so the token is `VALID` again);
    /// a Preserve 6.4 repository refuses another card number.
    package func updated(
        sealedCard: [UInt8],
        cardNumber: String,
        storedCardNumber: String,
        format: TokenFormat,
        now: Date
    ) throws(CardTokenRejection) -> StoredToken {
        if format == .preserveSixFour, cardNumber != storedCardNumber { throw .preservedCardChanged }
        var updated = self
        updated.sealedCard = sealedCard
        updated.status = .valid
        updated.updatedAt = now
        return updated
    }
}
