import SwiftASN1
import Testing

@testable import ApplePayToken

@Suite("BER reader")
struct BERElementTests {
    @Test("definite and indefinite lengths, nested, with the end-of-contents octets left out of contents")
    func lengths() throws {
        // SEQUENCE (indefinite) { INTEGER 5, [0] (indefinite) { OCTET STRING 'ab' }, NULL }
        let bytes: [UInt8] = [0x30, 0x80, 0x02, 0x01, 0x05, 0xA0, 0x80, 0x04, 0x02, 0x61, 0x62, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00]
        let root = try BERElement.parse(bytes[...])
        #expect(root.tag == 0x30)
        #expect(root.encoded.count == bytes.count)
        let children = try root.children()
        #expect(children.map(\.tag) == [0x02, 0xA0, 0x05])
        #expect(Array(children[0].contents) == [0x05])
        let inner = try children[1].children()
        #expect(try inner[0].octetString("test") == [0x61, 0x62])
        #expect(Array(children[1].encoded) == [0xA0, 0x80, 0x04, 0x02, 0x61, 0x62, 0x00, 0x00])
    }

    @Test("a chunked (constructed) OCTET STRING is refused: Apple writes the signature whole")
    func chunkedOctetString() throws {
        let bytes: [UInt8] = [0x24, 0x80, 0x04, 0x01, 0x01, 0x04, 0x02, 0x02, 0x03, 0x00, 0x00]
        let error = #expect(throws: CMSFormatError.self) { try BERElement.parse(bytes[...]).octetString("test") }
        #expect(error?.reason.contains("chunked") == true)
    }

    @Test("long-form lengths")
    func longLength() throws {
        let payload = [UInt8](repeating: 7, count: 300)
        let bytes: [UInt8] = [0x04, 0x82, 0x01, 0x2C] + payload
        #expect(Array(try BERElement.parse(bytes[...]).contents) == payload)
    }

    @Test(
        "malformed input is an error, never a crash",
        arguments: [
            [], [0x30], [0x30, 0x05, 0x02], [0x30, 0x80, 0x02, 0x01, 0x05], [0x04, 0x80, 0x00, 0x00],
            [0x1F, 0x01, 0x00], [0x04, 0x85, 1, 1, 1, 1, 1], [0x30, 0x00, 0x01], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF],
        ] as [[UInt8]]
    )
    func malformed(bytes: [UInt8]) {
        #expect(throws: CMSFormatError.self) {
            let root = try BERElement.parse(bytes[...])
            _ = try root.children().map { try $0.children() }
        }
    }

    @Test("nesting deeper than the limit is refused")
    func deepNesting() {
        let deep = Array(repeating: [UInt8]([0x30, 0x80]), count: 100).flatMap { $0 } + [UInt8](repeating: 0, count: 200)
        #expect(throws: CMSFormatError.self) { try BERElement.parse(deep[...]) }
    }

    @Test("the OID content constants match SwiftASN1's encoding")
    func oidContents() throws {
        #expect(OID.signedDataContents == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
        #expect(OID.sha256Contents == [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01])
        #expect(OID.ecdsaWithSHA256Contents == [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])
    }
}
