/// What the response says about the card: masked numbers only, never a cryptogram.
package struct CardDetails: Sendable {
    package struct Device: Sendable {
        package var maskedNumber: String
        package var expiry: CardExpiry
        package var cryptogramFormat: CryptogramFormat
    }

    package var maskedNumber: String
    package var brand: CardBrand
    package var expiry: CardExpiry
    package var nameOnCard: String?
    /// Apple Pay payments: the device account number and cryptogram format.
    package var device: Device?
}

/// How an Apple Pay payment's cryptogram was made.
package enum CryptogramFormat: String, Sendable, Hashable {
    case threeDSecure = "3DSECURE"
    case emv = "EMV"
}
