import Crypto

/// HMAC-SHA256 (RFC 2104) and HKDF-SHA256 (RFC 5869) over swift-crypto's SHA-256, for the
/// short keys and inputs of a token's KEM. swift-crypto's `HKDF` and `HMAC` compute the same
/// (the tests compare them) through generic, allocating code that cost as much as a tenth of a
/// warm token; these cost about the SHA-256 blocks they hash.
struct HMACSHA256 {
    private var inner = SHA256()
    private var outer = SHA256()

    /// A key of at most 64 bytes (all the KEM uses: 32).
    init(key: UnsafeRawBufferPointer) {
        precondition(key.count <= 64, "HMACSHA256 takes keys of at most one block")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            block.initialize(repeating: 0x36)
            for index in key.indices { block[index] ^= key[index] }
            inner.update(bufferPointer: UnsafeRawBufferPointer(block))
            for index in block.indices { block[index] ^= 0x36 ^ 0x5C }
            outer.update(bufferPointer: UnsafeRawBufferPointer(block))
        }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        inner.update(bufferPointer: bytes)
    }

    consuming func finalize() -> SHA256Digest {
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }

    /// HMAC keyed with Google's salt, 32 zero bytes: its padded key blocks are hashed once.
    private static let zeroSaltKeyed = [UInt8](repeating: 0, count: SHA256.byteCount).withUnsafeBytes { HMACSHA256(key: $0) }

    /// HKDF-SHA256 with a salt of 32 zero bytes (Google's): `outputByteCount` bytes, at most 64.
    static func hkdf(inputKeyMaterial: [UInt8], info: [UInt8], outputByteCount: Int) -> [UInt8] {
        precondition(outputByteCount <= 64, "the KEM derives at most two blocks")
        var extract = zeroSaltKeyed
        inputKeyMaterial.withUnsafeBytes { extract.update($0) }
        let pseudoRandomKey = extract.finalize()

        var output: [UInt8] = []
        output.reserveCapacity(64)
        var previous: SHA256Digest?
        var counter: UInt8 = 1
        // Each block's HMAC starts from the same keyed state: the key blocks are hashed once.
        let keyed = pseudoRandomKey.withUnsafeBytes { HMACSHA256(key: $0) }
        while output.count < outputByteCount {
            var expand = keyed
            previous?.withUnsafeBytes { expand.update($0) }
            info.withUnsafeBytes { expand.update($0) }
            withUnsafeBytes(of: counter) { expand.update($0) }
            let block = expand.finalize()
            block.withUnsafeBytes { output.append(contentsOf: $0.prefix(outputByteCount - output.count)) }
            previous = block
            counter += 1
        }
        return output
    }
}
