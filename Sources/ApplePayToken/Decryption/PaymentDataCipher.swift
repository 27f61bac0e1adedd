import Crypto

/// Step 4: AES-GCM with a 16-byte zero IV and no associated data; the tag ends `data`.
/// AES-256 for EC_v1, AES-128 for RSA_v1: the key's size decides.
public enum PaymentDataCipher {
    private static let zeroIV = try! AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 16))

    /// Decrypts and authenticates; no plaintext ever comes out of a failed tag check.
    public static func open(_ data: [UInt8], using key: SymmetricKey) throws(ApplePayTokenError) -> [UInt8] {
        guard data.count > 16 else {
            throw ApplePayTokenError(.decryptionFailed, "data is too short to hold a GCM tag", field: "data")
        }
        do {
            let box = try AES.GCM.SealedBox(nonce: zeroIV, ciphertext: data.dropLast(16), tag: data.suffix(16))
            return Array(try AES.GCM.open(box, using: key))
        } catch {
            throw ApplePayTokenError(
                .decryptionFailed,
                "the AES-GCM tag does not verify: the key is wrong or the data was altered",
                field: "data"
            )
        }
    }
}
