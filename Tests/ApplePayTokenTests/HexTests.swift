import Testing

@testable import ApplePayToken

@Suite("Hex")
struct HexTests {
    @Test("every byte value encodes to two digits of the asked case and decodes back")
    func everyByte() {
        let bytes = (0...255).map(UInt8.init)
        let lower = Hex.encode(bytes)
        let upper = Hex.encode(bytes, uppercase: true)
        #expect(lower.utf8.count == 512)
        #expect(lower.hasPrefix("000102") && lower.hasSuffix("fdfeff"))
        #expect(upper == lower.uppercased())
        #expect(Hex.decode(lower) == bytes)
        #expect(Hex.decode(upper) == bytes)
    }

    @Test("an empty input is an empty string")
    func empty() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0xde, 0xad, 0xbe, 0xef], uppercase: true) == "DEADBEEF")
    }
}
