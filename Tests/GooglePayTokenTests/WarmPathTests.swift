import Crypto
import Foundation
import GooglePaySandbox
import Synchronization
import Testing

@testable import GooglePayToken

/// The warm path's shortcuts answer exactly as the long way does: the intermediate key cache, and
/// the readers and the KEM written for speed, each checked against the code it stands in for.
@Suite("Warm path")
struct WarmPathTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        private let now: Mutex<Date>
        init(_ date: Date) { now = Mutex(date) }
        func set(_ date: Date) { now.withLock { $0 = date } }
        var read: @Sendable () -> Date { { self.now.withLock { $0 } } }
    }

    @Test("a cached intermediate key serves while it and its root are unexpired; after, the refusals are a cold check's")
    func cacheHonoursExpirations() throws {
        let start = Date()
        let root = GooglePaySandboxRoot(keyExpiration: start.addingTimeInterval(7200))
        let minter = GooglePayTokenMinter(root: root, intermediateKeyExpiration: start.addingTimeInterval(3600))
        let merchantKey = P256.KeyAgreement.PrivateKey()
        let recipient = GooglePayRecipient.gateway("warm", privateKeys: [merchantKey])
        var request = GooglePayMintRequest()
        request.messageExpiration = start.addingTimeInterval(86400)
        let token = try GooglePaymentMethodToken(
            parsing: minter.mint(request, recipientId: recipient.recipientId, recipientPublicKey: merchantKey.publicKey)
        )
        let clock = TestClock(start)
        let warm = GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys, clock: clock.read)
        func cold() -> GooglePayTokenDecryptor { GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys, clock: clock.read) }

        _ = try warm.decrypt(token, for: recipient)
        _ = try warm.decrypt(token, for: recipient)
        // Another recipient is refused by the message signature, warm or cold.
        let other = GooglePayRecipient.gateway("other", privateKeys: [merchantKey])
        #expect(refusalCode { try warm.decrypt(token, for: other) } == .messageSignatureInvalid)

        clock.set(start.addingTimeInterval(3601))
        #expect(refusalCode { try warm.decrypt(token, for: recipient) } == .intermediateKeyExpired)
        #expect(refusalCode { try cold().decrypt(token, for: recipient) } == .intermediateKeyExpired)

        clock.set(start.addingTimeInterval(7201))
        #expect(refusalCode { try warm.decrypt(token, for: recipient) } == .noUsableRootKey)
        #expect(refusalCode { try cold().decrypt(token, for: recipient) } == .noUsableRootKey)
    }

    @Test("the cache is keyed by every signature too: a warm decryptor refuses an altered one as a cold one does")
    func cacheKeyCoversSignatures() throws {
        let root = GooglePaySandboxRoot()
        let merchantKey = P256.KeyAgreement.PrivateKey()
        let recipient = GooglePayRecipient.gateway("warm", privateKeys: [merchantKey])
        let token = try GooglePaymentMethodToken(
            parsing: GooglePayTokenMinter(root: root).mint(
                GooglePayMintRequest(),
                recipientId: recipient.recipientId,
                recipientPublicKey: merchantKey.publicKey
            )
        )
        let warm = GooglePayTokenDecryptor(rootKeys: root.rootSigningKeys)
        _ = try warm.decrypt(token, for: recipient)
        var altered = token
        let signature = try #require(altered.intermediateSigningKey?.signatures.first)
        // Another valid DER signature by another key, so the refusal is the root check's.
        let forged = try P256.Signing.PrivateKey().signature(for: signature)
        altered.intermediateSigningKey?.signatures = [Array(forged.derRepresentation)]
        #expect(refusalCode { try warm.decrypt(altered, for: recipient) } == .untrustedIntermediateKey)
    }

    @Test("the cache holds at most its capacity, the oldest leaving first, and drops a key whose root expired")
    func cacheBounds() throws {
        let cache = IntermediateKeyCache(capacity: 2)
        let now = Date()
        func key(_ index: Int) -> IntermediateKeyCache.Key {
            IntermediateKeyCache.Key(
                protocolVersion: .ecV2,
                intermediate: .init(signedKey: "key \(index)", signatures: [[UInt8(index)]])
            )
        }
        let entry = IntermediateKeyCache.Entry(
            publicKey: P256.Signing.PrivateKey().publicKey,
            keyExpiration: now.addingTimeInterval(60),
            rootExpiration: now.addingTimeInterval(30)
        )
        for index in 0..<3 { cache.store(entry, for: key(index)) }
        #expect(cache.count == 2)
        #expect(cache.lookup(key(0), at: now) == nil)
        #expect(cache.lookup(key(2), at: now) != nil)
        #expect(cache.lookup(key(2), at: now.addingTimeInterval(30)) == nil)
        let none = IntermediateKeyCache(capacity: 0)
        none.store(entry, for: key(0))
        #expect(none.count == 0)
    }

    @Test("HMACSHA256 and its HKDF compute what swift-crypto's HMAC and HKDF compute")
    func kemPrimitivesMatchSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 31, 32, 33, 55, 56, 63, 64, 65, 97, 200, 1000] {
            let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for keyLength in [0, 16, 32, 64] {
                let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
                var mac = key.withUnsafeBytes { HMACSHA256(key: $0) }
                input.withUnsafeBytes { mac.update($0) }
                let expected = HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: key))
                #expect(Array(mac.finalize()) == Array(expected), "key \(keyLength) bytes, input \(length) bytes")
            }
            for outputByteCount in [16, 32, 33, 64] {
                let ours = HMACSHA256.hkdf(inputKeyMaterial: input, info: Array("Google".utf8), outputByteCount: outputByteCount)
                let theirs = HKDF<SHA256>.deriveKey(
                    inputKeyMaterial: SymmetricKey(data: input),
                    salt: [UInt8](repeating: 0, count: 32),
                    info: Array("Google".utf8),
                    outputByteCount: outputByteCount
                )
                #expect(ours == theirs.withUnsafeBytes { Array($0) }, "input \(length) bytes, output \(outputByteCount)")
            }
        }
    }

    @Test("DER signatures are read as swift-crypto reads them, each byte changed included")
    func derSignaturesMatchSwiftCrypto() throws {
        let key = P256.Signing.PrivateKey()
        var samples: [[UInt8]] = []
        for index in 0..<40 {
            samples.append(Array(try key.signature(for: [UInt8(index)]).derRepresentation))
        }
        // Hand-made edges: non-minimal lengths and integers, negative, too long, trailing bytes.
        let r = [UInt8](repeating: 0x11, count: 32)
        let high = [0x80] + [UInt8](repeating: 0x22, count: 31)
        func integer(_ content: [UInt8]) -> [UInt8] { [0x02, UInt8(content.count)] + content }
        func sequence(_ content: [UInt8]) -> [UInt8] { [0x30, UInt8(content.count)] + content }
        samples += [
            sequence(integer(r) + integer([0x00] + high)),
            sequence(integer(r) + integer(high)),
            sequence(integer([0x00] + r) + integer([0x00] + high)),
            sequence(integer([0x00, 0x00] + high) + integer(r)),
            sequence(integer([0x01] + r) + integer(r)),
            sequence(integer([0x00]) + integer(r)),
            sequence(integer([]) + integer(r)),
            sequence(integer(r) + integer(r)) + [0x00],
            [0x30, 0x81, 0x44] + integer(r) + integer(r),
            sequence(integer(r) + [0x02, 0x81, 0x20] + r),
            [0x30, 0x00],
            [],
        ]
        var compared = 0
        for sample in samples {
            var variants = [sample, Array(sample.dropLast()), sample + [0x00]]
            for index in sample.indices {
                for flip: UInt8 in [0x01, 0x80, 0xFF] {
                    var changed = sample
                    changed[index] ^= flip
                    variants.append(changed)
                }
            }
            for variant in variants {
                let theirs = try? P256.Signing.ECDSASignature(derRepresentation: variant)
                let ours = DERSignature.ecdsaP256(variant)
                #expect(ours?.rawRepresentation == theirs?.rawRepresentation, "\(variant)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }

    @Test("base64 is read exactly as Foundation's decoder checked for its one canonical text reads it")
    func strictBase64MatchesCanonicalFoundation() {
        /// The reading the hand-written decoder replaced.
        func reference(_ text: String) -> [UInt8]? {
            guard !text.isEmpty else { return nil }
            let remainder = text.utf8.count % 4
            let padded = remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
            guard let data = Data(base64Encoded: padded) else { return nil }
            let canonical = data.base64EncodedString()
            guard canonical == text || canonical.trimmingCharacters(in: ["="]) == text else { return nil }
            return Array(data)
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= -_\\\"".utf8)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Data(bytes).base64EncodedString()
            var texts = [text, text.trimmingCharacters(in: ["="]), text + "=", "=" + text]
            let utf8 = Array(text.utf8)
            for index in utf8.indices {
                var changed = utf8
                changed[index] = alphabet.randomElement(using: &generator)!
                texts.append(String(decoding: changed, as: UTF8.self))
            }
            for candidate in texts {
                #expect(StrictBase64.decode(candidate) == reference(candidate), "\(candidate)")
            }
        }
    }

    @Test("the signed message's compact form reads as the JSON reader reads it, and is refused for the same causes")
    func compactEnvelopeMatchesJSONReader() throws {
        let ciphertext = StrictBase64.encode([UInt8](repeating: 7, count: 40))
        let point = StrictBase64.encode([0x04] + [UInt8](repeating: 9, count: 64))
        let tag = StrictBase64.encode([UInt8](repeating: 5, count: 32))
        func compact(_ c: String, _ p: String, _ t: String) -> String {
            #"{"encryptedMessage":"\#(c)","ephemeralPublicKey":"\#(p)","tag":"\#(t)"}"#
        }
        func spaced(_ c: String, _ p: String, _ t: String) -> String {
            #"{ "tag": "\#(t)", "ephemeralPublicKey": "\#(p)", "encryptedMessage": "\#(c)" }"#
        }
        let fast = try EncryptedMessage(compact(ciphertext, point, tag))
        let slow = try EncryptedMessage(spaced(ciphertext, point, tag))
        #expect(fast.ciphertext == slow.ciphertext && fast.ephemeralPublicKey == slow.ephemeralPublicKey && fast.tag == slow.tag)
        #expect(fast.tag == [UInt8](repeating: 5, count: 32))

        let shortTag = StrictBase64.encode([UInt8](repeating: 5, count: 31))
        let compressed = StrictBase64.encode([0x02] + [UInt8](repeating: 9, count: 32))
        let refusals = [
            (ciphertext, point, shortTag),
            (ciphertext, compressed, tag),
            ("not base64!", point, tag),
            (ciphertext + "=", point, tag),
            (ciphertext, point, "\\u0041" + tag),
        ]
        for (c, p, t) in refusals {
            let fields = Set([compact(c, p, t), spaced(c, p, t)].map { text in fieldOfRefusal { try EncryptedMessage(text) } })
            #expect(fields.count == 1 && fields.first != nil, "\(c) \(p) \(t): \(fields)")
        }
    }

    private func fieldOfRefusal(_ body: () throws -> some Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as GooglePayTokenError {
            return "\(error.code) \(error.field ?? "")"
        } catch {
            return "\(error)"
        }
    }
}
