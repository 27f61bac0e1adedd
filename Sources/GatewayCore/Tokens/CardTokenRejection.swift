/// Why a gateway token cannot be made, changed or used as asked. The rules in ``StoredToken``
/// decide it; each front end says it in its own words. (``TokenRejection`` is the Apple Pay
/// token's.)
package enum CardTokenRejection: Error, Hashable, Sendable {
    /// Unknown, deleted or another merchant's: nothing tells these apart, so a token reveals
    /// nothing of another repository.
    case notFound
    /// A Preserve 6.4 repository keeps a token's card number: the update names another card.
    case preservedCardChanged
    /// The session holds an Apple Pay (device) payment: its cryptogram is for one payment only,
    /// so there is no card this gateway may store.
    case devicePaymentNotStorable
    /// A payment names a gateway token and carries Apple Pay data too: a token pays as a stored
    /// credential, without a cryptogram, and a cryptogram authenticates only the card it came
    /// with, so there is no one card to charge.
    case devicePaymentWithToken
}
