import Foundation
import Testing
import WireJSON

@testable import GooglePayToken

/// Any single-byte change anywhere in a valid token is refused with a ``GooglePayTokenError``,
/// never accepted and never a crash: in the token's JSON text, in the signed texts, and in the
/// bytes its base64 fields decode to.
@Suite("Single-byte tampering")
struct SingleByteTamperingTests {
    /// Changes that keep a byte ASCII, make it a control character, and make it invalid UTF-8.
    static let flips: [UInt8] = [0x01, 0x20, 0x80]

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let text: String
        let decryptor: GooglePayTokenDecryptor
        let recipient: GooglePayRecipient
        var description: String { name }
    }

    /// The real Google test token, written compactly (pretty-printing whitespace is not part of
    /// the token: a changed space would still be the same token), and a Python-minted one.
    static func cases() async throws -> [Case] {
        let moov = try GooglePayFixtures.tokenText("moov-google-test")
        let compact = String(decoding: try JSONValue(parsing: Array(moov.utf8)).serialized(), as: UTF8.self)
        let minted = try await PythonMintedTokens.shared()
        return [
            Case(
                name: "Google test token",
                text: compact,
                decryptor: GooglePayTokenDecryptor(rootKeys: .googleTest, clock: { GooglePayFixtures.date(milliseconds: 1_645_490_000_000) }),
                recipient: GooglePayRecipient(
                    recipientId: "merchant:12345678901234567890",
                    privateKeys: [try GooglePayFixtures.privateKey("moov-google-test")]
                )
            ),
            Case(
                name: "Python-minted token",
                text: try minted.tokenText("ecv2-pan-only"),
                decryptor: try minted.decryptor(),
                recipient: try minted.recipient()
            ),
        ]
    }

    @Test("every byte of the token's JSON text, changed, is refused")
    func tokenText() async throws {
        for testCase in try await Self.cases() {
            // The unchanged token is accepted, so each refusal below is the change's doing.
            _ = try testCase.decryptor.decrypt(GooglePaymentMethodToken(parsing: testCase.text), for: testCase.recipient)
            let bytes = Array(testCase.text.utf8)
            var codes: Set<String> = []
            for index in bytes.indices {
                for flip in Self.flips {
                    var changed = bytes
                    changed[index] ^= flip
                    let code = refusalCode {
                        try testCase.decryptor.decrypt(GooglePaymentMethodToken(jsonBytes: changed), for: testCase.recipient)
                    }
                    #expect(code != nil, "\(testCase): byte \(index) ^ \(flip) was accepted")
                    if let code { codes.insert(code.rawValue) }
                }
            }
            // The changes fail for different reasons, each named.
            #expect(codes.isSuperset(of: ["MALFORMED_TOKEN", "UNTRUSTED_INTERMEDIATE_KEY", "MESSAGE_SIGNATURE_INVALID"]), "\(codes)")
        }
    }

    @Test("every byte of the signed texts and the decoded signatures, changed, is refused")
    func decodedFields() async throws {
        for testCase in try await Self.cases() {
            let token = try GooglePaymentMethodToken(parsing: testCase.text)
            var variants: [GooglePaymentMethodToken] = []
            for index in token.signature.indices {
                var changed = token
                changed.signature[index] ^= 0x01
                variants.append(changed)
            }
            let intermediate = try #require(token.intermediateSigningKey)
            for index in intermediate.signatures[0].indices {
                var changed = token
                changed.intermediateSigningKey?.signatures[0][index] ^= 0x01
                variants.append(changed)
            }
            for index in 0..<intermediate.signedKey.utf8.count {
                var changed = token
                changed.intermediateSigningKey?.signedKey = Self.flipping(intermediate.signedKey, at: index)
                variants.append(changed)
            }
            for index in 0..<token.signedMessage.utf8.count {
                var changed = token
                changed.signedMessage = Self.flipping(token.signedMessage, at: index)
                variants.append(changed)
            }
            for variant in variants {
                #expect(refusalCode { try testCase.decryptor.decrypt(variant, for: testCase.recipient) } != nil)
            }
            #expect(variants.count > 500)
        }
    }

    @Test("every byte of the ciphertext, tag and ephemeral key, changed, fails the tag check (or the point check)")
    func cipherFields() throws {
        let token = try GooglePayFixtures.token("moov-google-test")
        let key = try GooglePayFixtures.privateKey("moov-google-test")
        let message = try EncryptedMessage(token.signedMessage)
        _ = try MessageCipher.open(message, version: .ecV2, privateKeys: [key])
        func text(_ ciphertext: [UInt8], _ ephemeral: [UInt8], _ tag: [UInt8]) -> String {
            String(
                decoding: JSONValue.object([
                    "encryptedMessage": .string(StrictBase64.encode(ciphertext)),
                    "ephemeralPublicKey": .string(StrictBase64.encode(ephemeral)),
                    "tag": .string(StrictBase64.encode(tag)),
                ]).serialized(),
                as: UTF8.self
            )
        }
        var texts: [String] = []
        for index in message.ciphertext.indices {
            var changed = message.ciphertext
            changed[index] ^= 0x01
            texts.append(text(changed, message.ephemeralPublicKey, message.tag))
        }
        for index in message.tag.indices {
            var changed = message.tag
            changed[index] ^= 0x01
            texts.append(text(message.ciphertext, message.ephemeralPublicKey, changed))
        }
        for index in message.ephemeralPublicKey.indices {
            var changed = message.ephemeralPublicKey
            changed[index] ^= 0x01
            texts.append(text(message.ciphertext, changed, message.tag))
        }
        for changed in texts {
            let code = refusalCode { try MessageCipher.open(EncryptedMessage(changed), version: .ecV2, privateKeys: [key]) }
            #expect(code == .tagMismatch || code == .malformedToken)
        }
        // A changed ciphertext or tag is caught by the MAC itself.
        let ciphertextChange = texts[0]
        #expect(refusalCode { try MessageCipher.open(EncryptedMessage(ciphertextChange), version: .ecV2, privateKeys: [key]) } == .tagMismatch)
    }

    /// `text` with its UTF-8 byte at `index` changed (to another ASCII byte, so it stays text).
    static func flipping(_ text: String, at index: Int) -> String {
        var bytes = Array(text.utf8)
        bytes[index] ^= bytes[index] == 0x7E ? 0x02 : 0x01
        return String(decoding: bytes, as: UTF8.self)
    }
}
