/// `sourceOfFunds.provided.card.storedOnFile` (issue 64): whether the merchant stores the card
/// for later payments, or pays with one it stored.
package enum StoredOnFile: String, Sendable, Hashable, CaseIterable {
    case notStored = "NOT_STORED"
    case toBeStored = "TO_BE_STORED"
    case stored = "STORED"
}

/// What an AUTHORIZE, PAY or VERIFY says about a series of payments (issue 64): the agreement it
/// belongs to, the earlier order it follows and whether its card is stored. A payment with
/// `transaction.source` MERCHANT is merchant-initiated: the payer is not there.
package struct StoredCredentials: Sendable, Hashable {
    package var agreementId: String?
    package var referenceOrderId: String?
    package var storedOnFile: StoredOnFile?

    package init(agreementId: String? = nil, referenceOrderId: String? = nil, storedOnFile: StoredOnFile? = nil) {
        self.agreementId = agreementId
        self.referenceOrderId = referenceOrderId
        self.storedOnFile = storedOnFile
    }
}

/// Why a merchant-initiated (or agreement) payment was refused: one case per rule of the
/// reference's "Credential on File" guide.
package enum MerchantInitiatedRejection: Error, Sendable, Hashable {
    /// A merchant-initiated payment names neither its agreement nor the order it follows.
    case agreementMissing
    /// A merchant-initiated payment carries a card security code (the payer is not there to give it).
    case securityCodeSent
    /// A merchant-initiated payment whose card is not a stored one (storedOnFile other than STORED).
    case cardNotStored(StoredOnFile)
    /// `referenceOrderId` names no order of this merchant.
    case referenceOrderNotFound(String)
}

extension PaymentRequest {
    /// `transaction.source` MERCHANT.
    package var isMerchantInitiated: Bool { transactionSource == "MERCHANT" }

    /// The rules the request alone decides; the reference order's existence is the processor's.
    package func checkStoredCredentials() throws(MerchantInitiatedRejection) {
        guard isMerchantInitiated else { return }
        if storedCredentials.agreementId == nil, storedCredentials.referenceOrderId == nil { throw .agreementMissing }
        if case .card(let card) = source, card.securityCode != nil { throw .securityCodeSent }
        if let storedOnFile = storedCredentials.storedOnFile, storedOnFile != .stored { throw .cardNotStored(storedOnFile) }
    }
}
