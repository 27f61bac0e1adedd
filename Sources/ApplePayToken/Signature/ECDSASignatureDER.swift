/// An ECDSA-Sig-Value (RFC 3279: SEQUENCE { r INTEGER, s INTEGER }) read into the 64-byte r || s
/// that swift-crypto verifies with.
///
/// swift-crypto's own DER initializer parses through a general ASN.1 reader into nodes and copies
/// the bytes three times, a few microseconds per token on the warm path. This reads it with the
/// CMS reader (which takes lengths only in their shortest form) as strictly as DER: a definite
/// length, exactly two minimal positive integers of at most 32 octets, nothing after them. Range
/// checks (0 < r, s < n) stay with the verifier.
enum ECDSASignatureDER {
    static func rawP256(_ der: ArraySlice<UInt8>) -> [UInt8]? {
        guard let sequence = try? BERElement.parse(der), sequence.tag == BERElement.sequence, !sequence.isIndefinite,
            let integers = try? sequence.children(), integers.count == 2
        else { return nil }
        var raw = [UInt8](repeating: 0, count: 64)
        for (half, integer) in integers.enumerated() {
            guard integer.tag == BERElement.integer, let magnitude = positiveMagnitude(integer.contents), magnitude.count <= 32
            else { return nil }
            let end = 32 * (half + 1)
            raw.replaceSubrange((end - magnitude.count)..<end, with: magnitude)
        }
        return raw
    }

    /// A minimally encoded, non-negative INTEGER's octets without its sign octet; nil for an empty,
    /// negative or padded one (a leading zero is allowed only before an octet with its high bit set).
    private static func positiveMagnitude(_ contents: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let first = contents.first, first & 0x80 == 0 else { return nil }
        guard first == 0, contents.count > 1 else { return contents }
        let rest = contents.dropFirst()
        return rest[rest.startIndex] & 0x80 != 0 ? rest : nil
    }
}
