import Testing

@testable import WireJSON

@Suite("Where a run of plain string text ends, eight bytes at a time")
struct PlainTextScanTests {
    /// Mostly plain text (base64's alphabet and UTF-8's high bytes), with now and then a byte that
    /// ends a run (a quote, a backslash, a control character) or one beside them (0x20, 0x21,
    /// 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF): the bytes a wrong bit trick would take for the others.
    static func randomBytes(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        let plain = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8) + [0xC3, 0xA9, 0xE2, 0x82, 0xAC]
        let special: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x0A, 0x1F]
        let near: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF, 0xA2, 0xDC]
        return (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            switch Int.random(in: 0..<40, using: &generator) {
            case 0: special.randomElement(using: &generator)!
            case 1...4: near.randomElement(using: &generator)!
            default: plain.randomElement(using: &generator)!
            }
        }
    }

    @Test("the same index as a byte-by-byte scan, from every start")
    func agreesWithAByteByByteScan() {
        var generator = SystemRandomNumberGenerator()
        var stoppedEarly = 0
        for _ in 0..<20_000 {
            let bytes = Self.randomBytes(using: &generator)
            for start in 0...bytes.count {
                let expected = bytes[start...].firstIndex(where: PlainTextScan.needsAttention) ?? bytes.count
                let found = bytes.withUnsafeBufferPointer { PlainTextScan.end(of: $0, from: start) }
                #expect(found == expected, "\(bytes) from \(start)")
                if expected < bytes.count { stoppedEarly += 1 }
            }
        }
        #expect(stoppedEarly > 1000)
    }

    @Test("every byte value, alone and in each lane of a word")
    func everyByteInEveryLane() {
        for byte in UInt8.min...UInt8.max {
            for lane in 0..<16 {
                var bytes = [UInt8](repeating: UInt8(ascii: "A"), count: 16)
                bytes[lane] = byte
                let expected = PlainTextScan.needsAttention(byte) ? lane : 16
                #expect(bytes.withUnsafeBufferPointer { PlainTextScan.end(of: $0, from: 0) } == expected, "byte \(byte) in lane \(lane)")
            }
        }
    }
}
