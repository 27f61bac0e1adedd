/// Masks a card number to its first six and last four digits, the most PCI DSS lets anyone see.
public enum CardNumberMask {
    public static func mask(_ number: String) -> String {
        // A number of ASCII digits, as every validated one is, is masked byte by byte: every
        // response masks one, and splitting it into Characters cost more than the rest.
        var bytes = Array(number.utf8)
        if bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            let hidden = bytes.count > 10 ? 6..<(bytes.count - 4) : 0..<bytes.count
            for index in hidden { bytes[index] = UInt8(ascii: "x") }
            return String(decoding: bytes, as: UTF8.self)
        }
        let characters = Array(number)
        guard characters.count > 10 else { return String(repeating: "x", count: characters.count) }
        return String(characters.prefix(6)) + String(repeating: "x", count: characters.count - 10)
            + String(characters.suffix(4))
    }
}
