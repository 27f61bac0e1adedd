import Foundation

/// Google's times: milliseconds since the Unix epoch, written as a JSON string of digits.
enum EpochMilliseconds {
    /// The date for 1 to 15 ASCII digits (15 reach past the year 30000), or nil for anything else.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard (1...15).contains(bytes.count), bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let milliseconds = Int64(text)
        else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
