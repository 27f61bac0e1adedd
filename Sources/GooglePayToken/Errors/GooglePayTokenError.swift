/// The one error the Google Pay token library throws.
///
/// `code` is stable and meant for programs (the gateway maps it to an HTTP error, metrics count it);
/// `reason` is for people. Neither ever contains key material, a PAN or a cryptogram.
public struct GooglePayTokenError: Error, Sendable, CustomStringConvertible {
    public let code: Code
    /// What failed, in words a merchant's engineer can act on.
    public let reason: String
    /// The token or message field at fault, when there is one (`intermediateSigningKey.signedKey`...).
    public let field: String?

    init(_ code: Code, _ reason: String, field: String? = nil) {
        self.code = code
        self.reason = reason
        self.field = field
    }

    public var description: String {
        "\(code): \(reason)"
    }
}

extension GooglePayTokenError {
    /// A stable, machine-readable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable, CaseIterable {
            case malformedToken = "MALFORMED_TOKEN"
            case unsupportedVersion = "UNSUPPORTED_VERSION"
            case noUsableRootKey = "NO_USABLE_ROOT_KEY"
            case untrustedIntermediateKey = "UNTRUSTED_INTERMEDIATE_KEY"
            case intermediateKeyExpired = "INTERMEDIATE_KEY_EXPIRED"
            case messageSignatureInvalid = "MESSAGE_SIGNATURE_INVALID"
            case tagMismatch = "TAG_MISMATCH"
            case decryptionFailed = "DECRYPTION_FAILED"
            case malformedMessage = "MALFORMED_MESSAGE"
            case unsupportedPaymentMethod = "UNSUPPORTED_PAYMENT_METHOD"
            case messageExpired = "MESSAGE_EXPIRED"
            case invalidKeyMaterial = "INVALID_KEY_MATERIAL"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// Every code the library can throw, in declaration order (for error catalogues).
        public static var allCases: [Code] { Backing.allCases.map(Code.init) }

        /// The code as text, e.g. `TAG_MISMATCH`.
        public var rawValue: String { backing.rawValue }
        public var description: String { backing.rawValue }

        /// The token is not the JSON Google specifies (missing or unknown field, wrong type, bad base64).
        public static let malformedToken = Code(.malformedToken)
        /// `protocolVersion` is not `ECv1`, `ECv2` or `ECv2SigningOnly`.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// No configured root signing key is for the token's protocol version and unexpired.
        public static let noUsableRootKey = Code(.noUsableRootKey)
        /// No signature of the intermediate signing key verifies with a usable root key: signed
        /// under another root (the other environment's), or altered.
        public static let untrustedIntermediateKey = Code(.untrustedIntermediateKey)
        /// The intermediate signing key's `keyExpiration` has passed.
        public static let intermediateKeyExpired = Code(.intermediateKeyExpired)
        /// The message signature does not verify for this recipient id: a token for another
        /// recipient, or an altered `signedMessage` or `signature` (ECv1, whose root signs the
        /// message itself: also a token under another root).
        public static let messageSignatureInvalid = Code(.messageSignatureInvalid)
        /// No configured private key gives a MAC key that verifies the `tag`: the token was
        /// encrypted for another key, or the ciphertext or tag was altered.
        public static let tagMismatch = Code(.tagMismatch)
        /// The key agreement or the decryption itself failed.
        public static let decryptionFailed = Code(.decryptionFailed)
        /// The decrypted message is not the JSON Google specifies.
        public static let malformedMessage = Code(.malformedMessage)
        /// The message is for a payment method or authentication method this library does not know.
        public static let unsupportedPaymentMethod = Code(.unsupportedPaymentMethod)
        /// The message's `messageExpiration` has passed.
        public static let messageExpired = Code(.messageExpired)
        /// A root signing key or a private key could not be loaded.
        public static let invalidKeyMaterial = Code(.invalidKeyMaterial)
    }
}
