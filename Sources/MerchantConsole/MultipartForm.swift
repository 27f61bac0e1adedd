import Foundation

/// A `multipart/form-data` body (RFC 7578), read for the certificate upload: each part's name,
/// and its bytes. Only what a browser sends for a form with text fields and one file.
package enum MultipartForm {
    /// The fields as text (where they are UTF-8) and the raw bytes of each part.
    package static func parse(_ body: [UInt8], contentType: String) -> (fields: [String: String], files: [String: [UInt8]])? {
        guard let boundaryRange = contentType.range(of: "boundary=") else { return nil }
        var boundary = String(contentType[boundaryRange.upperBound...].prefix { $0 != ";" })
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
        guard !boundary.isEmpty, boundary.count <= 70 else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        var fields: [String: String] = [:]
        var files: [String: [UInt8]] = [:]
        var parts = split(body, on: delimiter)
        guard parts.count >= 2 else { return nil }
        parts.removeFirst()  // the preamble
        for var part in parts {
            if part.starts(with: Array("--".utf8)) { break }  // the closing delimiter
            if part.starts(with: [13, 10]) { part.removeFirst(2) }
            guard let headerEnd = find(part, [13, 10, 13, 10]) else { return nil }
            // Not decoded lossily: two names differing only in bytes that are not UTF-8 would read as one.
            guard let headers = String(validating: part[..<headerEnd], as: UTF8.self) else { return nil }
            var content = Array(part[(headerEnd + 4)...])
            if content.suffix(2) == [13, 10] { content.removeLast(2) }
            guard let name = parameter("name", in: headers) else { continue }
            if parameter("filename", in: headers) != nil {
                files[name] = content
            } else if let text = String(validating: content, as: UTF8.self) {
                fields[name] = text
            }
        }
        return (fields, files)
    }

    private static func parameter(_ name: String, in headers: String) -> String? {
        guard let range = headers.range(of: "; \(name)=\"") else { return nil }
        return String(headers[range.upperBound...].prefix { $0 != "\"" })
    }

    private static func find(_ bytes: [UInt8], _ needle: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if Array(bytes[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }

    private static func split(_ bytes: [UInt8], on delimiter: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        while let index = find(bytes, delimiter, from: start) {
            parts.append(Array(bytes[start..<index]))
            start = index + delimiter.count
        }
        parts.append(Array(bytes[start...]))
        return parts
    }
}
