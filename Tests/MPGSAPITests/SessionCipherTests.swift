import Testing

@testable import MPGSAPI

/// Session content sealed at rest: it opens only with its key and on its own session.
@Suite("Session sealing")
struct SessionCipherTests {
    static let key = [UInt8](repeating: 7, count: 32)
    static let content = Array(#"{"sourceOfFunds":{"provided":{"card":{"number":"5123450000000008"}}}}"#.utf8)

    @Test("sealed content opens to the same bytes, and the sealed bytes do not contain it")
    func roundTrip() throws {
        let cipher = SessionCipher(key: Self.key)
        let sealed = try cipher.seal(Self.content, sessionId: "SESSION0001")
        #expect(try cipher.open(sealed, sessionId: "SESSION0001") == Self.content)
        #expect(sealed.count == Self.content.count + 12 + 16, "nonce, ciphertext, tag")
        #expect(!String(decoding: sealed, as: UTF8.self).contains("5123450000000008"))
        // A fresh nonce each time: sealing twice gives different bytes.
        #expect(try cipher.seal(Self.content, sessionId: "SESSION0001") != sealed)
    }

    @Test("copied onto another session, under another key, or changed in any byte, it does not open")
    func refusals() throws {
        let cipher = SessionCipher(key: Self.key)
        let sealed = try cipher.seal(Self.content, sessionId: "SESSION0001")
        #expect(throws: (any Error).self) { try cipher.open(sealed, sessionId: "SESSION0002") }
        #expect(throws: (any Error).self) {
            try SessionCipher(key: [UInt8](repeating: 8, count: 32)).open(sealed, sessionId: "SESSION0001")
        }
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: (any Error).self, "byte \(index)") { try cipher.open(changed, sessionId: "SESSION0001") }
        }
        #expect(throws: (any Error).self) { try cipher.open(Array(sealed.dropLast()), sessionId: "SESSION0001") }
    }
}
