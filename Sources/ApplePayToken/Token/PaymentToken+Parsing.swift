import Foundation
import WireJSON

extension PaymentToken {
    /// Parses a token posted as JSON text, or as base64 of that JSON.
    public init(parsing text: String) throws(ApplePayTokenError) {
        let first = text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if first == UInt8(ascii: "{") {
            try self.init(jsonBytes: text.utf8)
        } else if let decoded = Base64.decode(text), decoded.first == UInt8(ascii: "{") {
            try self.init(jsonBytes: decoded)
        } else {
            throw ApplePayTokenError(.malformedToken, "the token is neither JSON nor base64-encoded JSON", field: "paymentToken")
        }
    }

    /// Parses the UTF-8 JSON bytes of a token.
    public init<Bytes: Collection<UInt8>>(jsonBytes: Bytes) throws(ApplePayTokenError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: jsonBytes)
        } catch {
            if let key = error.duplicateKey {
                throw ApplePayTokenError(.malformedToken, "the token repeats the key \"\(key.prefix(40))\"", field: "paymentToken")
            }
            throw ApplePayTokenError(.malformedToken, "the token is not valid JSON", field: "paymentToken")
        }
        try self.init(fields: try RawToken(value).fields)
    }

    /// SubjectPublicKeyInfo DER of a P-256 key with an uncompressed point, as Apple sends it.
    static let p256SubjectPublicKeyInfoLength = 91
    /// Twice what Apple sends: the bound on an identifier whose length Apple does not document.
    static let maxTransactionIdLength = 64

    /// A token from its fields as text, for an API that carries them apart rather than as Apple's
    /// JSON (Radial's `WalletPaymentInformation`): every check the JSON gets, without writing
    /// JSON only to parse it back. An absent field is nil; errors name fields as the JSON does.
    public init(fields raw: TextFields) throws(ApplePayTokenError) {
        guard let versionText = raw.version else { throw missing("version") }
        guard let version = Version(rawValue: versionText) else {
            throw ApplePayTokenError(
                .unsupportedVersion,
                "version \"\(versionText.prefix(32))\" is not EC_v1 or RSA_v1",
                field: "version"
            )
        }
        guard let header = raw.header else { throw missing("header") }

        let keyExchange: KeyExchange
        switch version {
        case .ecV1:
            guard header.wrappedKey == nil else { throw unexpected("header.wrappedKey", in: version) }
            let ephemeral = try base64(header.ephemeralPublicKey, "header.ephemeralPublicKey")
            // Apple: "X.509 encoded key bytes" of a P-256 key, which is 91 bytes (uncompressed point).
            guard ephemeral.count == Self.p256SubjectPublicKeyInfoLength else {
                throw ApplePayTokenError(
                    .malformedToken,
                    "header.ephemeralPublicKey is \(ephemeral.count) bytes, not the 91-byte X.509 encoding of a P-256 key",
                    field: "header.ephemeralPublicKey"
                )
            }
            keyExchange = .ephemeralPublicKey(ephemeral)
        case .rsaV1:
            guard header.ephemeralPublicKey == nil else { throw unexpected("header.ephemeralPublicKey", in: version) }
            keyExchange = .wrappedKey(try base64(header.wrappedKey, "header.wrappedKey"))
        }

        let publicKeyHash = try base64(header.publicKeyHash, "header.publicKeyHash")
        guard publicKeyHash.count == 32 else {
            throw ApplePayTokenError(
                .malformedToken,
                "header.publicKeyHash is \(publicKeyHash.count) bytes, not a 32-byte SHA-256",
                field: "header.publicKeyHash"
            )
        }
        guard let transactionId = header.transactionId else { throw missing("header.transactionId") }
        guard let transactionIdBytes = Hex.decode(transactionId), !transactionIdBytes.isEmpty else {
            throw ApplePayTokenError(.malformedToken, "header.transactionId is not hex", field: "header.transactionId")
        }
        // Apple documents no length ("a hexadecimal identifier"); every real token has 32 bytes.
        // The bound only keeps absurd values out: replay protection does not depend on it.
        guard transactionIdBytes.count <= Self.maxTransactionIdLength else {
            throw ApplePayTokenError(
                .malformedToken,
                "header.transactionId is \(transactionIdBytes.count) bytes; at most \(Self.maxTransactionIdLength) are accepted",
                field: "header.transactionId"
            )
        }
        var applicationData: [UInt8]?
        if let text = header.applicationData {
            guard let bytes = Hex.decode(text), bytes.count == 32 else {
                throw ApplePayTokenError(
                    .malformedToken,
                    "header.applicationData is not a hex SHA-256 (64 hex characters)",
                    field: "header.applicationData"
                )
            }
            applicationData = bytes
        }

        let data = try base64(raw.data, "data")
        guard data.count > 16 else {
            throw ApplePayTokenError(.malformedToken, "data is too short to hold a GCM tag", field: "data")
        }
        self.init(
            version: version,
            data: data,
            signature: try base64(raw.signature, "signature"),
            header: Header(
                keyExchange: keyExchange,
                publicKeyHash: publicKeyHash,
                transactionIdBytes: transactionIdBytes,
                applicationData: applicationData
            )
        )
    }
}

extension PaymentToken {
    /// A token's fields as the text Apple writes them (base64, or hex for the header's
    /// transactionId and applicationData), each optional so that a missing one is reported by name.
    public struct TextFields: Sendable, Hashable {
        public struct Header: Sendable, Hashable {
            public var ephemeralPublicKey: String?
            public var wrappedKey: String?
            public var publicKeyHash: String?
            public var transactionId: String?
            public var applicationData: String?

            public init(
                ephemeralPublicKey: String? = nil,
                wrappedKey: String? = nil,
                publicKeyHash: String? = nil,
                transactionId: String? = nil,
                applicationData: String? = nil
            ) {
                self.ephemeralPublicKey = ephemeralPublicKey
                self.wrappedKey = wrappedKey
                self.publicKeyHash = publicKeyHash
                self.transactionId = transactionId
                self.applicationData = applicationData
            }
        }
        public var version: String?
        public var data: String?
        public var signature: String?
        public var header: Header?

        public init(version: String?, data: String?, signature: String?, header: Header?) {
            self.version = version
            self.data = data
            self.signature = signature
            self.header = header
        }
    }
}

/// The token as JSON, read into its text fields.
/// Unknown keys are ignored: Apple may add header fields, and they are not signed content.
private struct RawToken {
    let fields: PaymentToken.TextFields

    init(_ value: JSONValue) throws(ApplePayTokenError) {
        guard case .object(let token) = value else {
            throw ApplePayTokenError(.malformedToken, "the token is not a JSON object", field: "paymentToken")
        }
        // In this order, so that of several wrong fields the same one is named as before.
        let version = try Self.string(token, "version", path: "version")
        let data = try Self.string(token, "data", path: "data")
        let signature = try Self.string(token, "signature", path: "signature")
        let header: PaymentToken.TextFields.Header?
        switch token["header"] {
        case nil, .null:
            header = nil
        case .object(let fields):
            header = PaymentToken.TextFields.Header(
                ephemeralPublicKey: try Self.string(fields, "ephemeralPublicKey", path: "header.ephemeralPublicKey"),
                wrappedKey: try Self.string(fields, "wrappedKey", path: "header.wrappedKey"),
                publicKeyHash: try Self.string(fields, "publicKeyHash", path: "header.publicKeyHash"),
                transactionId: try Self.string(fields, "transactionId", path: "header.transactionId"),
                applicationData: try Self.string(fields, "applicationData", path: "header.applicationData")
            )
        default:
            throw ApplePayTokenError(.malformedToken, "header must be an object", field: "header")
        }
        fields = PaymentToken.TextFields(version: version, data: data, signature: signature, header: header)
    }

    private static func string(
        _ object: [String: JSONValue],
        _ key: String,
        path: String
    ) throws(ApplePayTokenError)
        -> String?
    {
        switch object[key] {
        case nil, .null: return nil
        case .string(let text): return text
        default: throw ApplePayTokenError(.malformedToken, "\(path) must be a string", field: path)
        }
    }
}

private func missing(_ field: String) -> ApplePayTokenError {
    ApplePayTokenError(.malformedToken, "\(field) is missing", field: field)
}

private func unexpected(_ field: String, in version: PaymentToken.Version) -> ApplePayTokenError {
    ApplePayTokenError(.malformedToken, "\(field) is not allowed in a \(version.rawValue) token", field: field)
}

private func base64(_ text: String?, _ field: String) throws(ApplePayTokenError) -> [UInt8] {
    guard let text else { throw missing(field) }
    guard let bytes = Base64.decode(text) else {
        throw ApplePayTokenError(.malformedToken, "\(field) is not base64", field: field)
    }
    return bytes
}
