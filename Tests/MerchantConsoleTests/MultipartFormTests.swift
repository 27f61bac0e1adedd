import Foundation
import MerchantConsole
import Testing

/// The console's multipart reader on inputs request-fuzz found (`Sources/RequestFuzzer`).
@Suite("Console multipart reader")
struct MultipartFormTests {
    static let contentType = "multipart/form-data; boundary=XyZ"

    static func part(name: [UInt8], value: String) -> [UInt8] {
        Array("--XyZ\r\nContent-Disposition: form-data; name=\"".utf8) + name + Array("\"\r\n\r\n\(value)\r\n".utf8)
    }

    @Test("a part's headers that are not UTF-8 make the form unreadable: two such names would read as one")
    func headersNotUTF8() {
        // "csrf\xFF" and "csrf\xFE" both decoded lossily to "csrf\u{FFFD}", the second's value over the first's.
        let body =
            Self.part(name: Array("csrf".utf8) + [0xFF], value: "1") + Self.part(name: Array("csrf".utf8) + [0xFE], value: "2")
            + Array("--XyZ--\r\n".utf8)
        let form = MultipartForm.parse(body, contentType: Self.contentType)
        #expect(form == nil, "read as \(String(describing: form?.fields))")
    }

    @Test("a name in UTF-8 (as a browser sends it) is read")
    func utf8Name() {
        let body = Self.part(name: Array("prénom".utf8), value: "Zoë") + Array("--XyZ--\r\n".utf8)
        #expect(MultipartForm.parse(body, contentType: Self.contentType)?.fields == ["prénom": "Zoë"])
    }
}
