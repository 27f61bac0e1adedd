import Crypto

/// An Apple Pay `paymentData` token: what the device encrypted and Apple signed.
///
/// Create one with ``init(parsing:)`` from the JSON text (or base64 of it) that clients post.
/// Binary fields are kept decoded. ``replayKey`` is what replay records are keyed on.
public struct PaymentToken: Sendable, Hashable {
    public enum Version: String, Sendable, Hashable {
        /// ECDH P-256 + AES-256-GCM.
        case ecV1 = "EC_v1"
        /// RSA-OAEP key wrap + AES-128-GCM.
        case rsaV1 = "RSA_v1"
    }

    /// The key material that lets the merchant restore the symmetric key.
    public enum KeyExchange: Sendable, Hashable {
        /// EC_v1: SubjectPublicKeyInfo DER of the device's ephemeral P-256 key.
        case ephemeralPublicKey([UInt8])
        /// RSA_v1: the AES key wrapped with the merchant's RSA key.
        case wrappedKey([UInt8])

        var bytes: [UInt8] {
            switch self {
            case .ephemeralPublicKey(let bytes), .wrappedKey(let bytes): bytes
            }
        }
    }

    public struct Header: Sendable, Hashable {
        public var keyExchange: KeyExchange
        /// SHA-256 of the merchant certificate's SubjectPublicKeyInfo DER.
        public var publicKeyHash: [UInt8]
        /// The device-generated transaction identifier, decoded from hex: part of the signed content.
        public var transactionIdBytes: [UInt8]
        /// `transactionIdBytes` as lower-case hex, whatever case the token spelled it in (the
        /// signature covers the bytes, not the text). Replay records of releases before 0.5 were
        /// keyed on it; see ``PaymentToken/replayKey`` for why they no longer are.
        public var transactionId: String { Hex.encode(transactionIdBytes) }
        /// SHA-256 of the payment request's applicationData, when the request had any.
        public var applicationData: [UInt8]?
    }

    public var version: Version
    /// Ciphertext followed by the 16-byte GCM tag.
    public var data: [UInt8]
    /// Detached CMS SignedData (BER).
    public var signature: [UInt8]
    public var header: Header

    public init(version: Version, data: [UInt8], signature: [UInt8], header: Header) {
        self.version = version
        self.data = data
        self.signature = signature
        self.header = header
    }

    /// What a replay record is keyed on: SHA-256 of `data` (the ciphertext with its GCM tag).
    ///
    /// Apple signs ephemeralPublicKey (or wrappedKey) ‖ data ‖ transactionId ‖ applicationData
    /// with no length framing, so bytes can be moved between `transactionId` and
    /// `applicationData` (or either re-spelt) without breaking the signature: a key built from
    /// those fields lets one token be charged twice. `data` cannot be cut or extended without
    /// breaking its GCM tag, and every token has exactly one, so no re-arrangement of the signed
    /// bytes that still decrypts changes this key.
    public var replayKey: [UInt8] { Array(SHA256.hash(data: data)) }

    /// The bytes Apple's signature covers, in order: the key exchange value, the ciphertext,
    /// the transaction id and the application data (each decoded from its text form).
    var signedContent: [UInt8] {
        var content = header.keyExchange.bytes
        content += data
        content += header.transactionIdBytes
        if let applicationData = header.applicationData { content += applicationData }
        return content
    }
}
