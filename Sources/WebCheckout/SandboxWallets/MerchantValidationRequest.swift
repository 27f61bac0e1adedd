/// What a merchant's server posts to the validation URL, as Apple documents it:
/// `{merchantIdentifier, displayName, initiative: "web", initiativeContext: "shop.example"}`, or
/// the older `{merchantIdentifier, domainName, displayName}`.
struct MerchantValidationRequest: Sendable {
    var merchantIdentifier: String
    var displayName: String
    /// The page's domain; empty for the `messaging` initiative, whose context is no domain.
    var domainName: String

    init(reading fields: SandboxApplePayFields) throws(SandboxApplePayError) {
        merchantIdentifier = try fields.text("merchantIdentifier")
        displayName = try fields.text("displayName")
        guard displayName.utf8.count <= 64 else {
            throw .invalid("displayName", "'displayName' must be at most 64 bytes (Apple's limit)")
        }
        let initiative = try fields.optionalText("initiative")
        let context = try fields.optionalText("initiativeContext")
        let legacyDomain = try fields.optionalText("domainName")
        switch initiative {
        case "web"?:
            guard let context, !context.isEmpty else { throw .missing("initiativeContext") }
            domainName = try Self.domain(context, field: "initiativeContext")
        case "messaging"?:
            domainName = ""
        case nil:
            guard let legacyDomain, !legacyDomain.isEmpty else { throw .missing("initiativeContext") }
            domainName = try Self.domain(legacyDomain, field: "domainName")
        case let other?:
            throw .invalid("initiative", "Value '\(other.prefix(64))' is invalid. Use web (or messaging)")
        }
    }

    /// A host name alone, as Apple wants it: no scheme, port or path.
    private static func domain(_ text: String, field: String) throws(SandboxApplePayError) -> String {
        let allowed = text.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D
        }
        guard allowed, text.utf8.count <= 253, !text.hasPrefix("."), !text.hasSuffix(".") else {
            throw .invalid(field, "Value '\(text.prefix(64))' is invalid. Give the page's domain name alone, e.g. shop.example")
        }
        return text.lowercased()
    }
}
