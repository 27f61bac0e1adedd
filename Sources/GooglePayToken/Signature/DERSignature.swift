import Crypto

/// A P-256 ECDSA signature in DER (`SEQUENCE { r INTEGER, s INTEGER }`), read to the 64-byte
/// `r || s` swift-crypto verifies. It accepts what swift-crypto's DER reader accepts (one
/// encoding per signature: short lengths, minimal non-negative integers of at most 32 bytes,
/// nothing after), without the round trip through BoringSSL's big numbers that cost a
/// microsecond per token.
enum DERSignature {
    static func ecdsaP256(_ der: [UInt8]) -> P256.Signing.ECDSASignature? {
        der.withUnsafeBufferPointer { der -> P256.Signing.ECDSASignature? in
            // A signature is at most 72 bytes, so every DER length here is one byte below 0x80.
            guard der.count >= 2, der[0] == 0x30, der[1] < 0x80, Int(der[1]) == der.count - 2 else { return nil }
            var position = 2
            var raw = [UInt8](repeating: 0, count: 64)
            for half in 0..<2 {
                guard position + 2 <= der.count, der[position] == 0x02, der[position + 1] < 0x80 else { return nil }
                let length = Int(der[position + 1])
                position += 2
                guard length > 0, position + length <= der.count else { return nil }
                var content = UnsafeBufferPointer(rebasing: der[position..<position + length])
                position += length
                // Non-negative, and minimal: a leading zero only where the next byte's top bit is set.
                guard content[0] & 0x80 == 0 else { return nil }
                if content[0] == 0, content.count > 1 {
                    guard content[1] & 0x80 != 0 else { return nil }
                    content = UnsafeBufferPointer(rebasing: content.dropFirst())
                }
                guard content.count <= 32 else { return nil }
                let end = 32 * (half + 1)
                for (offset, byte) in content.enumerated() { raw[end - content.count + offset] = byte }
            }
            guard position == der.count else { return nil }
            return try? P256.Signing.ECDSASignature(rawRepresentation: raw)
        }
    }
}
