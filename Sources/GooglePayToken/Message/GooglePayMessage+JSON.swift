import Foundation
import WireJSON

extension GooglePayMessage {
    /// The longest messageId accepted: Google's are about 140 characters; it is stored as a replay key.
    static let maxMessageIdBytes = 512
    static let maxGatewayMerchantIdBytes = 256
    static let maxCryptogramBytes = 64
    /// The message's keys in Google's table.
    static let documentedKeys: Set = ["messageId", "messageExpiration", "paymentMethod", "gatewayMerchantId", "paymentMethodDetails"]

    /// Unicode's control characters (general category Cc: U+0000-001F, U+007F-009F), without
    /// the property lookup per scalar that cost a tenth of reading a message.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Reads the plaintext: strict on the keys Google documents, tolerant of new ones.
    public init<Bytes: Collection<UInt8>>(jsonBytes: Bytes) throws(GooglePayTokenError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: jsonBytes)
        } catch {
            if let key = error.duplicateKey {
                throw GooglePayTokenError(.malformedMessage, "the message repeats the key \"\(key.prefix(40))\"")
            }
            throw GooglePayTokenError(.malformedMessage, "the message is not JSON")
        }
        guard case .object(let object) = value else {
            throw GooglePayTokenError(.malformedMessage, "the message is not a JSON object")
        }
        var reader = MessageFieldReader(object: object, prefix: "", documented: Self.documentedKeys)
        // A decrypted message is still input: a sandbox or a leaked intermediate key must not get
        // a malformed card number or replay key past this point.
        messageId = try reader.string("messageId") { text in
            (1...Self.maxMessageIdBytes).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
                ? nil : "must be 1 to \(Self.maxMessageIdBytes) printable ASCII characters"
        }
        let expirationText = try reader.string("messageExpiration") { text in
            EpochMilliseconds.date(text) == nil ? "must be milliseconds since the epoch, as a string of digits" : nil
        }
        messageExpiration = EpochMilliseconds.date(expirationText) ?? .distantPast
        paymentMethod = try reader.string("paymentMethod")
        guard paymentMethod == "CARD" else {
            throw GooglePayTokenError(
                .unsupportedPaymentMethod,
                "paymentMethod \"\(paymentMethod.prefix(20))\" is not CARD",
                field: "paymentMethod"
            )
        }
        gatewayMerchantId = try reader.optionalString("gatewayMerchantId")
        if let merchant = gatewayMerchantId,
            merchant.isEmpty || merchant.utf8.count > Self.maxGatewayMerchantIdBytes
                || merchant.unicodeScalars.contains(where: Self.isControl)
        {
            throw GooglePayTokenError(
                .malformedMessage,
                "gatewayMerchantId must be 1 to \(Self.maxGatewayMerchantIdBytes) bytes without control characters",
                field: "gatewayMerchantId"
            )
        }
        var details = MessageFieldReader(
            object: try reader.object("paymentMethodDetails"),
            prefix: "paymentMethodDetails.",
            documented: PaymentMethodDetails.documentedKeys
        )
        paymentMethodDetails = try PaymentMethodDetails(reading: &details)
        additionalFields = reader.remaining
    }
}

extension GooglePayMessage.PaymentMethodDetails {
    /// The details' keys in Google's table.
    static let documentedKeys: Set = ["authMethod", "pan", "expirationMonth", "expirationYear", "cryptogram", "eciIndicator"]

    fileprivate init(reading reader: inout MessageFieldReader) throws(GooglePayTokenError) {
        let method = try reader.string("authMethod")
        guard let authMethod = GooglePayMessage.AuthMethod(rawValue: method) else {
            throw GooglePayTokenError(
                .unsupportedPaymentMethod,
                "paymentMethodDetails.authMethod \"\(method.prefix(20))\" is neither PAN_ONLY nor CRYPTOGRAM_3DS",
                field: "paymentMethodDetails.authMethod"
            )
        }
        self.authMethod = authMethod
        pan = try reader.string("pan") { text in
            (12...19).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) } ? nil : "must be 12 to 19 digits"
        }
        expirationMonth = try reader.integer("expirationMonth", in: 1...12)
        expirationYear = try reader.integer("expirationYear", in: 1000...9999)
        let cryptogram = try reader.optionalString("cryptogram")
        let eci = try reader.optionalString("eciIndicator")
        switch authMethod {
        case .cryptogram3DS:
            guard let cryptogram else { throw reader.failure("cryptogram", "is missing (CRYPTOGRAM_3DS carries one)") }
            guard let bytes = StrictBase64.decode(cryptogram), (1...GooglePayMessage.maxCryptogramBytes).contains(bytes.count) else {
                throw reader.failure("cryptogram", "must be base64 of 1 to \(GooglePayMessage.maxCryptogramBytes) bytes")
            }
            if let eci, !((1...2).contains(eci.utf8.count) && eci.utf8.allSatisfy { (0x30...0x39).contains($0) }) {
                throw reader.failure("eciIndicator", "must be one or two digits")
            }
        case .panOnly:
            // A cryptogram with a card on file would be read as a device token downstream.
            if cryptogram != nil { throw reader.failure("cryptogram", "is only for CRYPTOGRAM_3DS") }
            if eci != nil { throw reader.failure("eciIndicator", "is only for CRYPTOGRAM_3DS") }
        }
        self.cryptogram = cryptogram
        eciIndicator = eci
        additionalFields = reader.remaining
    }
}

/// Reads documented keys of an object one by one; what is left are the unknown keys. It only
/// reads the object (taking keys out copied the whole dictionary at the first removal), and
/// counts what it read, so the usual message, with no unknown keys, builds no remainder.
private struct MessageFieldReader {
    let object: [String: JSONValue]
    let prefix: String
    /// Every key a reader of this object may read; what else is there is unknown.
    let documented: Set<String>
    private var readCount = 0

    init(object: [String: JSONValue], prefix: String, documented: Set<String>) {
        self.object = object
        self.prefix = prefix
        self.documented = documented
    }

    var remaining: [String: JSONValue] {
        object.count == readCount ? [:] : object.filter { !documented.contains($0.key) }
    }

    private mutating func take(_ key: String) -> JSONValue? {
        assert(documented.contains(key), "\(key) is read but not listed as documented")
        guard let value = object[key] else { return nil }
        readCount += 1
        return value
    }

    /// A required string; `problem` says what is wrong with its text, or nil when it is right.
    mutating func string(_ key: String, problem: (String) -> String? = { _ in nil }) throws(GooglePayTokenError) -> String {
        guard let value = try optionalString(key) else { throw failure(key, "is missing") }
        if let problem = problem(value) { throw failure(key, problem) }
        return value
    }

    mutating func optionalString(_ key: String) throws(GooglePayTokenError) -> String? {
        switch take(key) {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw failure(key, "must be a string")
        }
    }

    /// A whole JSON number in `range` (Google writes months and years as numbers).
    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(GooglePayTokenError) -> Int {
        switch take(key) {
        case .integer(let value)? where range.contains(Int(clamping: value)): return Int(value)
        case nil: throw failure(key, "is missing")
        default: throw failure(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
    }

    mutating func object(_ key: String) throws(GooglePayTokenError) -> [String: JSONValue] {
        switch take(key) {
        case .object(let value)?: return value
        case nil: throw failure(key, "is missing")
        default: throw failure(key, "must be an object")
        }
    }

    func failure(_ key: String, _ problem: String) -> GooglePayTokenError {
        GooglePayTokenError(.malformedMessage, "\(prefix)\(key) \(problem)", field: prefix + key)
    }
}
