/// An ECDSA-Sig-Value (RFC 3279: SEQUENCE { r INTEGER, s INTEGER }) read into the 64-byte r || s
/// that swift-crypto verifies with.
///
/// swift-crypto's own DER initializer parses through a general ASN.1 reader into nodes and copies
/// the bytes three times, a few microseconds per token on the warm path. This reads the two
/// integers in place, as strictly as DER: definite short lengths, minimal positive integers of at
/// most 32 octets, nothing after them. Range checks (0 < r, s < n) stay with the verifier.
enum ECDSASignatureDER {
    static func rawP256(_ der: ArraySlice<UInt8>) -> [UInt8]? {
        var index = der.startIndex
        // Two integers of at most 33 octets each fit a short-form SEQUENCE length (<= 70).
        guard der.count >= 2, der[index] == 0x30, Int(der[index + 1]) == der.count - 2 else { return nil }
        index += 2
        var raw = [UInt8](repeating: 0, count: 64)
        for half in 0..<2 {
            guard der.endIndex - index >= 2, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            index += 2
            guard length >= 1, length <= 33, der.endIndex - index >= length else { return nil }
            let value = der[index..<(index + length)]
            index += length
            let first = value[value.startIndex]
            // Negative, or a leading zero octet the value does not need.
            guard first & 0x80 == 0 else { return nil }
            if length > 1, first == 0, value[value.startIndex + 1] & 0x80 == 0 { return nil }
            let magnitude = first == 0 && length > 1 ? value.dropFirst() : value
            guard magnitude.count <= 32 else { return nil }
            let end = 32 * (half + 1)
            raw.replaceSubrange((end - magnitude.count)..<end, with: magnitude)
        }
        return index == der.endIndex ? raw : nil
    }
}
