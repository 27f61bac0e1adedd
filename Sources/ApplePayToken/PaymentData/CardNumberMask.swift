/// Masks a card number to its first six and last four digits, the most PCI DSS lets anyone see.
public enum CardNumberMask {
    public static func mask(_ number: String) -> String {
        let digits = Array(number)
        guard digits.count > 10 else { return String(repeating: "x", count: digits.count) }
        return String(digits.prefix(6)) + String(repeating: "x", count: digits.count - 10) + String(digits.suffix(4))
    }
}
