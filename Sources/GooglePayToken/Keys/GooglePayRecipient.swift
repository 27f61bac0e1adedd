import Crypto
import Foundation

/// Who a token is for: the recipient id Google signed it for, and the private keys whose public
/// halves were given to Google (several while a key is rotated; each is tried).
public struct GooglePayRecipient: Sendable {
    /// `gateway:<gateway id>` for a gateway, `merchant:<merchant id>` for a merchant decrypting itself.
    public var recipientId: String
    /// Every key a token may be encrypted for, newest first (the order only saves work).
    public var privateKeys: [P256.KeyAgreement.PrivateKey]

    public init(recipientId: String, privateKeys: [P256.KeyAgreement.PrivateKey]) {
        self.recipientId = recipientId
        self.privateKeys = privateKeys
    }

    /// The recipient id Google uses for a gateway: `gateway:<gatewayId>`.
    public static func gateway(_ gatewayId: String, privateKeys: [P256.KeyAgreement.PrivateKey]) -> GooglePayRecipient {
        GooglePayRecipient(recipientId: "gateway:\(gatewayId)", privateKeys: privateKeys)
    }

    /// A private key as Google's guide has merchants make it: PEM (PKCS#8 or SEC 1), or the
    /// base64 of its PKCS#8 DER on one line.
    public static func privateKey(from text: String) throws(GooglePayTokenError) -> P256.KeyAgreement.PrivateKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN"), let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: trimmed) {
            return key
        }
        if let der = StrictBase64.decode(trimmed), let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: der) {
            return key
        }
        throw GooglePayTokenError(.invalidKeyMaterial, "the private key is neither PEM nor base64 PKCS#8 of a P-256 key")
    }
}
