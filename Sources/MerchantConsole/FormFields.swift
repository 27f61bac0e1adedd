import Foundation

/// An `application/x-www-form-urlencoded` body or query string, read strictly: a name given
/// twice keeps its first value, and bytes that do not decode make the whole form unreadable.
package struct FormFields: Sendable {
    package private(set) var values: [String: String] = [:]
    /// The files of a multipart form, by field name.
    package private(set) var files: [String: [UInt8]] = [:]

    /// A multipart form's text fields and files.
    init(fields: [String: String], files: [String: [UInt8]]) {
        values = fields
        self.files = files
    }

    package init?(_ text: Substring) {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else { return nil }
            if values[name] == nil { values[name] = value }
        }
    }

    package init?(bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self.init(Substring(text))
    }

    /// The value, nil when absent or blank (a search field left empty filters nothing).
    package subscript(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// The value as sent, nil only when absent (passwords keep their spaces).
    package func raw(_ name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
