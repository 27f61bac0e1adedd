import Crypto
import Foundation
import _CryptoExtras

/// What a verified certificate chain tells about later tokens signed through it: the signer's
/// key and the period in which every certificate of the chain is valid. It depends only on the
/// certificates, so it is computed once and cached.
struct SignerChain: Sendable {
    enum SignerKey: Sendable {
        case p256(P256.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    var signerKey: SignerKey
    var validFrom: Date
    var validUntil: Date

    func isValid(at date: Date) -> Bool {
        validFrom <= date && date <= validUntil
    }
}
