/// The wallets a payment may name in `order.walletProvider`. The reference lists more (Google Pay,
/// Click to Pay, ...); this gateway's merchants are enabled for Apple Pay only, so a request naming
/// another is refused by the front end that reads it.
package enum WalletProvider: String, Sendable, Hashable, CaseIterable {
    case applePay = "APPLE_PAY"
}
