import Foundation

enum Base64 {
    /// Decodes standard base64, tolerating whitespace and missing `=` padding
    /// (real tokens have been passed around with their padding stripped).
    static func decode(_ text: String) -> [UInt8]? {
        var cleaned = text.filter { !$0.isWhitespace }
        guard !cleaned.isEmpty else { return nil }
        let remainder = cleaned.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { cleaned += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: cleaned).map { Array($0) }
    }

    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }
}
