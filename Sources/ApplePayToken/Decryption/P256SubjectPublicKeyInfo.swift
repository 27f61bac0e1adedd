import Crypto

/// The ephemeral public key of an EC_v1 token, from its SubjectPublicKeyInfo.
///
/// An uncompressed P-256 key's SPKI is always the same 26-octet header (id-ecPublicKey,
/// prime256v1, a 66-octet BIT STRING with no unused bits) before the point 04 || X || Y. Apple
/// writes exactly that; for those bytes the point goes straight to swift-crypto's X9.63 reader,
/// which checks it is on the curve, skipping a general ASN.1 parse and two copies on the warm path.
/// Anything else takes swift-crypto's DER reader, so what is accepted does not change.
enum P256SubjectPublicKeyInfo {
    static let uncompressedHeader: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    static func keyAgreementKey(_ der: [UInt8]) throws -> P256.KeyAgreement.PublicKey {
        let header = uncompressedHeader.count
        if der.count == header + 65, der.starts(with: uncompressedHeader) {
            return try der.withUnsafeBytes { bytes in
                try P256.KeyAgreement.PublicKey(x963Representation: UnsafeRawBufferPointer(rebasing: bytes[header...]))
            }
        }
        return try P256.KeyAgreement.PublicKey(derRepresentation: der)
    }
}
