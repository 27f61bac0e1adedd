/// The sizes and alphabets the payment data's free-form fields may have. A decrypted payload
/// is still input (a sandbox or a compromised signer can put anything there), and these values
/// travel on to the acquirer, the response and the store.
enum PaymentDataBounds {
    /// An online payment cryptogram is 20 bytes in every real token; room for longer schemes.
    static let maxCryptogramBytes = 64
    /// EMV data (tag-length-value) is a few hundred bytes.
    static let maxEMVDataBytes = 4096
    static let maxCardholderNameLength = 128

    /// Why `text` is not base64 of 1 to `maxBytes` bytes, or nil when it is.
    static func base64Problem(_ text: String, maxBytes: Int) -> String? {
        guard text.utf8.count <= (maxBytes + 2) / 3 * 4, let bytes = Base64.decode(text), (1...maxBytes).contains(bytes.count) else {
            return "must be base64 of 1 to \(maxBytes) bytes"
        }
        return nil
    }

    /// Real tokens send one digit ("5", "7"); the electronic commerce indicator has two at most.
    static func isECI(_ text: String) -> Bool {
        (1...2).contains(text.utf8.count) && text.utf8.allSatisfy(\.isASCIIDigit)
    }

    static func cardholderNameProblem(_ name: String) -> String? {
        if name.count > maxCardholderNameLength { return "is longer than \(maxCardholderNameLength) characters" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains control characters"
        }
        return nil
    }
}
