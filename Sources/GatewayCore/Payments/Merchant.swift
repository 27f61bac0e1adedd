import ApplePayToken
import Crypto
import Foundation
import GooglePayToken

/// A merchant the gateway serves: who may call for it, and the wallet keys its tokens are
/// encrypted to.
package struct Merchant: Sendable {
    package let id: String
    /// The active API passwords (two during a rotation), shared by every copy of this merchant:
    /// a rotation in Merchant Administration applies to the API at once.
    package let passwords: MerchantPasswords
    package let keyRing: MerchantKeyRing
    package let acquirer: any Acquirer
    /// The merchant's token repository: a token names a card of this merchant's only.
    package let tokens: TokenRepository
    /// Webhook notifications (`merchant.<ID>.notifications.*`); nil: none.
    package var notifications: MerchantNotifications? = nil
    /// Google Pay (`merchant.<ID>.googlePay.*`): the recipient id tokens are signed for and the
    /// private keys they are encrypted to; nil: the merchant takes no Google Pay tokens.
    package var googlePay: GooglePayRecipient? = nil
    /// The simulated risk assessment (`merchant.<ID>.risk`); nil: off, no `risk` in responses.
    package var risk: RiskScreening? = nil

    package init(
        id: String,
        apiPasswords: [String],
        keyRing: MerchantKeyRing,
        acquirer: any Acquirer,
        tokens: TokenRepository? = nil
    ) {
        self.id = id
        self.passwords = MerchantPasswords(configured: apiPasswords)
        self.keyRing = keyRing
        self.acquirer = acquirer
        self.tokens = tokens ?? TokenRepository(id: id)
    }

    /// Compares digests, so the time taken says nothing about how much of a password matched.
    /// Hashed from the string's own bytes: a `Data` copy of the password was a measurable part of
    /// the check's cost.
    package func accepts(password: String) -> Bool {
        var password = password
        let candidate = password.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return passwords.accepts(digest: candidate)
    }
}
