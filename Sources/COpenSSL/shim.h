// The system OpenSSL (libcrypto from libssl-dev), used where it does what swift-crypto's
// BoringSSL cannot: RSA with AVX-512 IFMA, and PKCS#12 bundles with legacy RC2/3DES encryption.
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
