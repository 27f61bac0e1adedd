import Foundation

extension PaymentToken {
    /// Parses a token posted as JSON text, or as base64 of that JSON.
    public init(parsing text: String) throws(ApplePayTokenError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") {
            try self.init(jsonBytes: Array(trimmed.utf8))
        } else if let decoded = Base64.decode(trimmed), decoded.first == UInt8(ascii: "{") {
            try self.init(jsonBytes: decoded)
        } else {
            throw ApplePayTokenError(.malformedToken, "the token is neither JSON nor base64-encoded JSON", field: "paymentToken")
        }
    }

    /// Parses the UTF-8 JSON bytes of a token.
    public init<Bytes: Collection<UInt8>>(jsonBytes: Bytes) throws(ApplePayTokenError) {
        let raw: RawToken
        do {
            raw = try JSONDecoder().decode(RawToken.self, from: Data(jsonBytes))
        } catch let error as DecodingError {
            throw ApplePayTokenError(.malformedToken, error.tokenReason, field: error.fieldPath)
        } catch {
            throw ApplePayTokenError(.malformedToken, "the token is not valid JSON", field: "paymentToken")
        }
        try self.init(validating: raw)
    }

    private init(validating raw: RawToken) throws(ApplePayTokenError) {
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
            keyExchange = .ephemeralPublicKey(try base64(header.ephemeralPublicKey, "header.ephemeralPublicKey"))
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
                transactionId: transactionId,
                transactionIdBytes: transactionIdBytes,
                applicationData: applicationData
            )
        )
    }
}

/// The token as JSON, every field optional so that a missing one is reported by name.
/// Unknown keys are ignored: Apple may add header fields, and they are not signed content.
private struct RawToken: Decodable {
    struct Header: Decodable {
        var ephemeralPublicKey: String?
        var wrappedKey: String?
        var publicKeyHash: String?
        var transactionId: String?
        var applicationData: String?
    }
    var version: String?
    var data: String?
    var signature: String?
    var header: Header?
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

extension DecodingError {
    /// The dotted path of the offending key, e.g. `header.transactionId`.
    var fieldPath: String? {
        let path: [CodingKey]
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
        @unknown default:
            return nil
        }
        guard !path.isEmpty else { return nil }
        return path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    var tokenReason: String {
        switch self {
        case .typeMismatch(let type, _): "\(fieldPath ?? "a field") must be a \(type == String.self ? "string" : "\(type)")"
        case .valueNotFound: "\(fieldPath ?? "a field") must not be null"
        case .keyNotFound: "\(fieldPath ?? "a field") is missing"
        case .dataCorrupted: "the token is not valid JSON"
        @unknown default: "the token is not valid JSON"
        }
    }
}
