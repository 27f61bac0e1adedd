import ApplePayToken
import Crypto
import Foundation
import GooglePayToken

/// What marks a wallet token as used. A store records both keys of an accepted token in one
/// replay record and refuses a token when either is already recorded:
/// - ``dataDigest``, SHA-256 of the token's `data`: no re-arrangement of the signed bytes that
///   still decrypts can change it (``PaymentToken/replayKey`` says why). It is what stops a token
///   whose applicationData was moved into its transactionId.
/// - ``transactionId``, lower-case hex of the header's id, whatever case the token spelled it
///   in: the key of every earlier release (whose records have no digest, and stay in force), and
///   what refuses a second token that claims a used id.
///
/// A Google Pay token is keyed the same way, in the same records (so replicas and every API
/// share them): its messageId, hashed and prefixed so that it can never meet an Apple id, and the
/// digest of its signed message.
package struct ApplePayReplayKey: Sendable, Hashable {
    package var transactionId: String
    package var dataDigest: [UInt8]
    /// When the store's retention of the record starts, if not at the transaction: a Google Pay
    /// message stays valid until its messageExpiration (Apple's tokens for minutes), so its record
    /// must outlive that, whatever the retention.
    package var validUntil: Date? = nil
    /// The wallet whose token this is, for the words of a refusal.
    package var wallet = WalletProvider.applePay

    package init(transactionId: String, dataDigest: [UInt8]) {
        self.transactionId = transactionId
        self.dataDigest = dataDigest
    }

    package init(_ token: DecryptedPaymentToken) {
        self.init(transactionId: token.transactionId, dataDigest: token.replayKey)
    }

    /// A Google Pay message's keys: `googlepay:` and the hex SHA-256 of its messageId (Google's
    /// ids are opaque text of any case; Apple's are hex), and the digest of the signed message.
    package init(googlePay token: DecryptedGooglePayToken, signedMessage: String) {
        let messageId = Hex.encode(Array(SHA256.hash(data: Array(token.messageId.utf8))))
        self.init(transactionId: "googlepay:" + messageId, dataDigest: Array(SHA256.hash(data: Array(signedMessage.utf8))))
        validUntil = token.message.messageExpiration
        wallet = .googlePay
    }

    /// The digest as the stores keep it: lower-case hex.
    package var dataDigestHex: String { Hex.encode(dataDigest) }

    /// The time the store's retention counts from for a record made at `time`.
    package func retainedFrom(_ time: Date) -> Date {
        max(time, validUntil ?? time)
    }
}
