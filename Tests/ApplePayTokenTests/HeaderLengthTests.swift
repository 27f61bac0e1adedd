import Foundation
import Testing

@testable import ApplePayToken

/// Header fields whose length Apple documents are refused at any other length, so signed bytes
/// cannot be moved across a field boundary and still parse.
@Suite("Header field lengths")
struct HeaderLengthTests {
    let parsing = TokenParsingTests()

    @Test("EC_v1 ephemeralPublicKey must be the 91-byte X.509 encoding of a P-256 key", arguments: [90, 92, 65, 0])
    func ephemeralKeyLength(count: Int) throws {
        let error = #expect(throws: ApplePayTokenError.self) {
            try parsing.parse { parsing.header(&$0, "ephemeralPublicKey", Data(repeating: 1, count: count).base64EncodedString()) }
        }
        #expect(error?.code == .malformedToken)
        #expect(error?.field == "header.ephemeralPublicKey")
    }

    @Test("transactionId: real tokens have 32 bytes; more than 64 is refused")
    func transactionIdBound() throws {
        let token = try parsing.parse { parsing.header(&$0, "transactionId", String(repeating: "ab", count: 64)) }
        #expect(token.header.transactionIdBytes.count == 64)
        let error = #expect(throws: ApplePayTokenError.self) {
            try parsing.parse { parsing.header(&$0, "transactionId", String(repeating: "ab", count: 65)) }
        }
        #expect(error?.field == "header.transactionId")
    }

    @Test("applicationData must be a 32-byte SHA-256")
    func applicationDataLength() throws {
        let error = #expect(throws: ApplePayTokenError.self) {
            try parsing.parse { parsing.header(&$0, "applicationData", String(repeating: "ab", count: 33)) }
        }
        #expect(error?.field == "header.applicationData")
    }

    @Test("the replay key is SHA-256 of data, whatever the header holds")
    func replayKeyIgnoresHeader() throws {
        let plain = try parsing.parse { _ in }
        let moved = try parsing.parse {
            parsing.header(&$0, "transactionId", "00ff10" + String(repeating: "cd", count: 32))
        }
        #expect(plain.replayKey == moved.replayKey)
        #expect(plain.replayKey.count == 32)
        let otherData = try parsing.parse { $0["data"] = Data(repeating: 8, count: 40).base64EncodedString() }
        #expect(otherData.replayKey != plain.replayKey)
    }
}

@Suite("RSA_v1 wrappedKey length")
struct WrappedKeyLengthTests {
    @Test("a wrappedKey a byte shorter or longer than the RSA modulus is refused before any RSA work", arguments: [-1, 1])
    func wrongLength(delta: Int) async throws {
        let minted = try await MintedTokens.shared()
        var token = try minted.token("rsa-rsa-leaf-emv")
        guard case .wrappedKey(let wrapped) = token.header.keyExchange else {
            Issue.record("expected an RSA_v1 token")
            return
        }
        token.header.keyExchange = .wrappedKey(delta < 0 ? Array(wrapped.dropFirst()) : [0] + wrapped)
        let identity = try #require(try minted.keyRing().identity(forPublicKeyHash: token.header.publicKeyHash))
        let error = #expect(throws: ApplePayTokenError.self) { try SymmetricKeyRestorer.restore(token, with: identity) }
        #expect(error?.code == .malformedToken)
        #expect(error?.field == "header.wrappedKey")
    }
}
