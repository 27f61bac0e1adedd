import Foundation

enum Base64 {
    /// Decodes standard base64, tolerating whitespace and missing `=` padding (real tokens have
    /// been passed around with their padding stripped). Works on bytes: tokens are decoded on
    /// every request, and Character-level filtering cost more than the decryption.
    static func decode(_ text: String) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        if utf8.contains(where: isWhitespace) { utf8.removeAll(where: isWhitespace) }
        guard !utf8.isEmpty else { return nil }
        switch utf8.count % 4 {
        case 1: return nil
        case 2: utf8 += [UInt8(ascii: "="), UInt8(ascii: "=")]
        case 3: utf8.append(UInt8(ascii: "="))
        default: break
        }
        return Data(base64Encoded: Data(utf8)).map { Array($0) }
    }

    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
