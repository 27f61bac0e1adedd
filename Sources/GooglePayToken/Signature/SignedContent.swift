import Crypto

/// The bytes Google signs: each part's UTF-8 after its length as 4 bytes, little-endian.
enum SignedContent {
    /// Who signs every token.
    static let sender = "Google"

    static func bytes(_ parts: String...) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count + 4 })
        for part in parts {
            let length = UInt32(truncatingIfNeeded: part.utf8.count)
            output += [
                UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length >> 16),
                UInt8(truncatingIfNeeded: length >> 24),
            ]
            output += part.utf8
        }
        return output
    }

    /// What a root key signs in ECv2 and ECv2SigningOnly: sender, protocol version, signed key.
    static func intermediateKey(_ token: GooglePaymentMethodToken, signedKey: String) -> [UInt8] {
        bytes(sender, token.protocolVersion.rawValue, signedKey)
    }

    /// What the message signature covers: sender, recipient id, protocol version, signed message.
    static func message(_ token: GooglePaymentMethodToken, recipientId: String) -> [UInt8] {
        bytes(sender, recipientId, token.protocolVersion.rawValue, token.signedMessage)
    }

    /// The SHA-256 of ``message(_:recipientId:)``, hashed from the strings' own bytes (the warm
    /// path: no copy of the signed message).
    static func messageDigest(_ token: GooglePaymentMethodToken, recipientId: String) -> SHA256Digest {
        var hasher = SHA256()
        func feed(_ part: String) {
            var part = part
            part.withUTF8 { utf8 in
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian) { hasher.update(bufferPointer: $0) }
                hasher.update(bufferPointer: UnsafeRawBufferPointer(utf8))
            }
        }
        feed(sender)
        feed(recipientId)
        feed(token.protocolVersion.rawValue)
        feed(token.signedMessage)
        return hasher.finalize()
    }
}
