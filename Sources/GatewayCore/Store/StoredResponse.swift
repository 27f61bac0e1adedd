/// The bytes one API answered a transaction with, kept only so that an identical retry through
/// the same API gets them byte for byte. Nothing reads a decision back out of them: every other
/// reader (follow-ons, Retrieve Order, another API) renders from the typed receipt.
package struct StoredResponse: Sendable, Hashable {
    package var format: ResponseFormat
    package var bytes: [UInt8]

    package init(format: ResponseFormat, bytes: [UInt8]) {
        self.format = format
        self.bytes = bytes
    }
}

/// Which API's wire format a stored response is in; each front end names its own.
package struct ResponseFormat: RawRepresentable, Sendable, Hashable {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }
}
