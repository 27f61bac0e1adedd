/// Why a CMS structure could not be read; becomes a signatureInvalid error.
struct CMSFormatError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension ApplePayTokenError {
    /// The signature is not what Apple writes.
    init(_ format: CMSFormatError) {
        self.init(.signatureInvalid, format.reason, field: "signature")
    }
}
