import ApplePayToken

/// What marks an Apple Pay token as used. A store records both keys of an accepted token in one
/// replay record and refuses a token when either is already recorded:
/// - ``dataDigest``, SHA-256 of the token's `data`: no re-arrangement of the signed bytes that
///   still decrypts can change it (``PaymentToken/replayKey`` says why). It is what stops a token
///   whose applicationData was moved into its transactionId.
/// - ``transactionId``, lower-case hex of the header's id, whatever case the token spelled it
///   in: the key of every earlier release (whose records have no digest, and stay in force), and
///   what refuses a second token that claims a used id.
package struct ApplePayReplayKey: Sendable, Hashable {
    package var transactionId: String
    package var dataDigest: [UInt8]

    package init(transactionId: String, dataDigest: [UInt8]) {
        self.transactionId = transactionId
        self.dataDigest = dataDigest
    }

    package init(_ token: DecryptedPaymentToken) {
        self.init(transactionId: token.transactionId, dataDigest: token.replayKey)
    }

    /// The digest as the stores keep it: lower-case hex.
    package var dataDigestHex: String { Hex.encode(dataDigest) }
}
