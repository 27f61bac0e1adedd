import COpenSSL

/// An RSA private key held by the system OpenSSL, for the RSA_v1 key unwrap.
///
/// OpenSSL 3 computes RSA-2048 private operations with AVX-512 IFMA where the CPU has it, about
/// twice as fast as swift-crypto's BoringSSL; the unwrap is the whole cost of a warm RSA_v1 token.
/// The key is immutable after loading and OpenSSL's private operations are thread-safe (blinding
/// is locked inside), so one instance serves all tasks.
final class OpenSSLRSAKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Loads a PKCS#1 or PKCS#8 DER private key; nil if OpenSSL cannot read it as RSA.
    init?(der: [UInt8]) {
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let loaded else {
            ERR_clear_error()
            return nil
        }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_RSA else {
            EVP_PKEY_free(loaded)
            return nil
        }
        key = loaded
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// RSA-OAEP with SHA-256 and MGF1-SHA-256; nil when the ciphertext does not decrypt.
    func decryptOAEPSHA256(_ ciphertext: [UInt8]) -> [UInt8]? {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_decrypt_init(context) == 1,
            EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1,
            EVP_PKEY_CTX_set_rsa_oaep_md(context, EVP_sha256()) == 1,
            EVP_PKEY_CTX_set_rsa_mgf1_md(context, EVP_sha256()) == 1
        else {
            ERR_clear_error()
            return nil
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key)))
        var length = output.count
        let status = ciphertext.withUnsafeBufferPointer { input in
            EVP_PKEY_decrypt(context, &output, &length, input.baseAddress, input.count)
        }
        guard status == 1 else {
            ERR_clear_error()
            return nil
        }
        return Array(output.prefix(length))
    }
}
