import Foundation

/// Standard base64 read one way only: every token field that is base64 has exactly one text for
/// its bytes, so no edit of an unsigned field (the signatures) can leave the token valid.
///
/// The `=` padding may be absent (it carries nothing), but unused bits must be zero and nothing
/// but the alphabet may appear: Foundation decodes around both.
enum StrictBase64 {
    static func decode(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 1 << 20, let data = Data(base64Encoded: padded(text)) else { return nil }
        let canonical = data.base64EncodedString()
        guard canonical == text || canonical.trimmingCharacters(in: ["="]) == text else { return nil }
        return Array(data)
    }

    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        Data(bytes).base64EncodedString()
    }

    private static func padded(_ text: String) -> String {
        let remainder = text.utf8.count % 4
        return remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
    }
}
