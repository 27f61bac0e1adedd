/// The wallets a payment may name in `order.walletProvider`. The reference lists more (Click to
/// Pay, Samsung Pay, ...); this gateway decrypts Apple Pay and Google Pay tokens, so a request
/// naming another is refused by the front end that reads it.
package enum WalletProvider: String, Sendable, Hashable, CaseIterable {
    case applePay = "APPLE_PAY"
    case googlePay = "GOOGLE_PAY"

    /// The wallet's name in messages: "Apple Pay", "Google Pay".
    package var displayName: String {
        switch self {
        case .applePay: "Apple Pay"
        case .googlePay: "Google Pay"
        }
    }
}
