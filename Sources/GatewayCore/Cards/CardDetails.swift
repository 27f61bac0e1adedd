/// What the response says about the card: masked numbers only, never a cryptogram.
package struct CardDetails: Sendable, Hashable {
    package struct Device: Sendable, Hashable {
        package var maskedNumber: String
        package var expiry: CardExpiry
        package var cryptogramFormat: CryptogramFormat

        package init(maskedNumber: String, expiry: CardExpiry, cryptogramFormat: CryptogramFormat) {
            self.maskedNumber = maskedNumber
            self.expiry = expiry
            self.cryptogramFormat = cryptogramFormat
        }
    }

    package var maskedNumber: String
    package var brand: CardBrand
    /// Nil only on transactions an early release recorded without it.
    package var expiry: CardExpiry?
    package var nameOnCard: String?
    /// Apple Pay payments: the device account number and cryptogram format.
    package var device: Device?

    package init(maskedNumber: String, brand: CardBrand, expiry: CardExpiry?, nameOnCard: String?, device: Device? = nil) {
        self.maskedNumber = maskedNumber
        self.brand = brand
        self.expiry = expiry
        self.nameOnCard = nameOnCard
        self.device = device
    }
}

/// How an Apple Pay payment's cryptogram was made.
package enum CryptogramFormat: String, Sendable, Hashable {
    case threeDSecure = "3DSECURE"
    case emv = "EMV"
}
