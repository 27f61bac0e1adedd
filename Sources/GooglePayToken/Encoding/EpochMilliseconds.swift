import Foundation

/// Google's times: milliseconds since the Unix epoch, written as a JSON string of digits.
enum EpochMilliseconds {
    /// The date for 1 to 15 ASCII digits (15 reach past the year 30000), or nil for anything else.
    static func date(_ text: String) -> Date? {
        let utf8 = text.utf8
        guard (1...15).contains(utf8.count) else { return nil }
        var milliseconds: Int64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            milliseconds = milliseconds * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
