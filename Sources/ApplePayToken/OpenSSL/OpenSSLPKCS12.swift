import COpenSSL

/// Opens PKCS#12 bundles as Keychain exports them (legacy RC2-40/3DES encryption, SHA-1 MAC),
/// which swift-crypto cannot decrypt, through the system OpenSSL.
enum OpenSSLPKCS12 {
    struct Contents {
        /// The private key as PKCS#8 DER.
        var privateKey: [UInt8]
        /// The certificate that belongs to the key, DER, when the bundle has one.
        var certificate: [UInt8]?
    }

    static func open(_ bundle: [UInt8], password: String) throws(ApplePayTokenError) -> Contents {
        guard legacyAlgorithmsAvailable else {
            throw ApplePayTokenError(
                .invalidKeyMaterial,
                "OpenSSL's legacy provider is not installed, so this PKCS#12 bundle cannot be decrypted; convert it "
                    + "once with: openssl pkcs12 -in BUNDLE.p12 -nodes -legacy -out merchant.pem"
            )
        }
        defer { ERR_clear_error() }
        let parsed: OpaquePointer? = bundle.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw ApplePayTokenError(.invalidKeyMaterial, "the file is not a PKCS#12 bundle") }
        defer { PKCS12_free(parsed) }

        var key: OpaquePointer?
        var certificate: OpaquePointer?
        guard PKCS12_parse(parsed, password, &key, &certificate, nil) == 1, let key else {
            throw ApplePayTokenError(
                .invalidKeyMaterial,
                "the PKCS#12 bundle does not open with the password given (or holds no key)"
            )
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
        }
        guard let info = EVP_PKEY2PKCS8(key) else {
            throw ApplePayTokenError(.invalidKeyMaterial, "the PKCS#12 bundle's key cannot be exported")
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return Contents(
            privateKey: try der { i2d_PKCS8_PRIV_KEY_INFO(info, &$0) },
            certificate: try certificate.map { certificate throws(ApplePayTokenError) in
                try der { i2d_X509(certificate, &$0) }
            }
        )
    }

    /// Runs an OpenSSL i2d function with an output buffer it allocates, and copies the result.
    private static func der(
        _ encode: (inout UnsafeMutablePointer<UInt8>?) -> Int32
    ) throws(ApplePayTokenError)
        -> [UInt8]
    {
        var output: UnsafeMutablePointer<UInt8>?
        let length = encode(&output)
        guard length > 0, let output else {
            throw ApplePayTokenError(.invalidKeyMaterial, "the PKCS#12 bundle's contents cannot be encoded")
        }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// RC2 and friends live in OpenSSL 3's legacy provider; loading any provider explicitly stops
    /// the default one from loading by itself, so both are loaded, once, on first use.
    private static let legacyAlgorithmsAvailable: Bool = {
        OSSL_PROVIDER_load(nil, "default") != nil && OSSL_PROVIDER_load(nil, "legacy") != nil
    }()
}
