/// The one error the token library throws.
///
/// `code` is stable and meant for programs (the gateway maps it to an HTTP error, metrics count it);
/// `reason` is for people. Neither ever contains key material, a PAN or a cryptogram.
public struct ApplePayTokenError: Error, Sendable, CustomStringConvertible {
    public let code: Code
    /// What failed, in words a merchant's engineer can act on.
    public let reason: String
    /// The token or payment-data field at fault, when there is one (`header.publicKeyHash`, `data`...).
    public let field: String?
    /// For ``Code/untrustedChain``: the distinguished name the signature's chain ends at (the
    /// intermediate's issuer), so a tool can tell a sandbox token from an altered Apple one.
    public let chainIssuer: String?

    init(_ code: Code, _ reason: String, field: String? = nil, chainIssuer: String? = nil) {
        self.code = code
        self.reason = reason
        self.field = field
        self.chainIssuer = chainIssuer
    }

    public var description: String {
        "\(code): \(reason)"
    }
}

extension ApplePayTokenError {
    /// A stable, machine-readable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable, CaseIterable {
            case malformedToken = "MALFORMED_TOKEN"
            case unsupportedVersion = "UNSUPPORTED_VERSION"
            case signatureInvalid = "SIGNATURE_INVALID"
            case messageDigestMismatch = "MESSAGE_DIGEST_MISMATCH"
            case missingLeafMarker = "MISSING_LEAF_MARKER"
            case missingIntermediateMarker = "MISSING_INTERMEDIATE_MARKER"
            case untrustedChain = "UNTRUSTED_CHAIN"
            case signingTimeOutsideWindow = "SIGNING_TIME_OUTSIDE_WINDOW"
            case noMatchingKey = "NO_MATCHING_KEY"
            case decryptionFailed = "DECRYPTION_FAILED"
            case malformedPaymentData = "MALFORMED_PAYMENT_DATA"
            case invalidKeyMaterial = "INVALID_KEY_MATERIAL"
            case verificationBusy = "VERIFICATION_BUSY"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// Every code the library can throw, in declaration order (for error catalogues).
        public static var allCases: [Code] { Backing.allCases.map(Code.init) }

        /// The code as text, e.g. `NO_MATCHING_KEY`.
        public var rawValue: String { backing.rawValue }
        public var description: String { backing.rawValue }

        /// The token is not the JSON Apple specifies (missing field, wrong type, bad base64 or hex).
        public static let malformedToken = Code(.malformedToken)
        /// `version` is neither `EC_v1` nor `RSA_v1`.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The CMS signature is unreadable, has not exactly one signer, or does not verify with the leaf key.
        public static let signatureInvalid = Code(.signatureInvalid)
        /// The signed messageDigest differs from SHA-256 of the token's key, data, transactionId and applicationData.
        public static let messageDigestMismatch = Code(.messageDigestMismatch)
        /// The signing certificate lacks Apple's leaf marker extension 1.2.840.113635.100.6.29.
        public static let missingLeafMarker = Code(.missingLeafMarker)
        /// The intermediate lacks Apple's marker extension 1.2.840.113635.100.6.2.14.
        public static let missingIntermediateMarker = Code(.missingIntermediateMarker)
        /// The certificates do not chain to a configured trust root, or were not valid at the signing time.
        public static let untrustedChain = Code(.untrustedChain)
        /// The CMS signing time is further from the current time than the configured window.
        public static let signingTimeOutsideWindow = Code(.signingTimeOutsideWindow)
        /// No configured merchant key matches the header's publicKeyHash.
        public static let noMatchingKey = Code(.noMatchingKey)
        /// The symmetric key could not be restored or the AES-GCM tag did not verify.
        public static let decryptionFailed = Code(.decryptionFailed)
        /// The decrypted payment data is not the JSON Apple specifies.
        public static let malformedPaymentData = Code(.malformedPaymentData)
        /// A merchant key or certificate could not be loaded.
        public static let invalidKeyMaterial = Code(.invalidKeyMaterial)
        /// The token's certificate chain is new to the decryptor, and it has verified as many new
        /// chains in the last second as it may: nothing was decided about the token; retry soon.
        public static let verificationBusy = Code(.verificationBusy)
    }
}
