import Foundation

/// An `application/x-www-form-urlencoded` body (what the ACS page's forms post): names to
/// values, the first of each name. Nil when it is not percent-encoded UTF-8.
package enum FormBody {
    package static func parse(_ bytes: [UInt8]) -> [String: String]? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard
                let name = decode(parts[0]),
                let value = parts.count > 1 ? decode(parts[1]) : ""
            else { return nil }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
