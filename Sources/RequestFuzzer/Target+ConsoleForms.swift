import Foundation
import GatewayCore
import MerchantConsole

extension Target {
    /// The console's `application/x-www-form-urlencoded` reader, and the order search read from
    /// what it accepts. Invariants: an accepted form is UTF-8; its fields, percent-encoded again
    /// and read back, are the same fields.
    static func consoleForm(seeds: [[UInt8]]) -> Target {
        let tokens = ParserTokens(
            [
                "&", "=", "+", "%", "%2", "%00", "%C3%A9", "%FF", "%E2%82", "%25", "%26", "%3D", "csrf=", "page=", "minAmount=",
                "from=", "to=", "last4=", "99999999999999999999", "2024-02-30", "\r\n", "\u{0}", "&&&", "==",
            ],
            nesting: ("%25", "")
        )
        return Target(name: "consoleForm", seeds: seeds, tokens: tokens) { input in
            guard let form = FormFields(bytes: input) else { return nil }
            guard String(validating: input, as: UTF8.self) != nil else { return "accepted a form that is not UTF-8" }
            let encoded = form.values.map { "\(percentEncoded($0.key))=\(percentEncoded($0.value))" }.joined(separator: "&")
            guard let reread = FormFields(bytes: Array(encoded.utf8)), reread.values == form.values else {
                return "the accepted form's fields, encoded again and read back, differ"
            }
            _ = try? OrderQuery(form: form, merchantId: "TESTMERCHANT")
            return nil
        }
    }

    /// The console's `multipart/form-data` reader (the certificate upload). The input's first
    /// line is the Content-Type header's value, the rest the body. Invariant: every field and
    /// file it returns is a run of the body's bytes.
    static func consoleMultipart(seeds: [[UInt8]]) -> Target {
        let tokens = ParserTokens(
            [
                "--", "\r\n", "\r\n\r\n", "--\r\n", "boundary=", "boundary=\"\"", "; name=\"", "; filename=\"", "\"",
                "Content-Disposition: form-data", "Content-Type: ", ";", "--boundary", "\u{0}", "\u{FF}",
            ],
            nesting: ("--x\r\n", "\r\n")
        )
        return Target(name: "consoleMultipart", seeds: seeds, tokens: tokens) { input in
            let lineEnd = input.firstIndex(of: 0x0A) ?? input.endIndex
            let contentType = String(decoding: input[..<lineEnd], as: UTF8.self).trimmingCharacters(in: .newlines)
            let body = Array(input[min(input.count, lineEnd + 1)...])
            guard let form = MultipartForm.parse(body, contentType: contentType) else { return nil }
            for (name, text) in form.fields where !contains(body, text.utf8) || !contains(body, name.utf8) {
                return "field \(name.prefix(40)) is not a run of the body's bytes"
            }
            for (name, bytes) in form.files where !contains(body, bytes) || !contains(body, name.utf8) {
                return "file \(name.prefix(40)) is not a run of the body's bytes"
            }
            return nil
        }
    }

    /// Every byte but the unreserved ones as %XX: what a browser's encoding can send at most.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}
